/**
 * How long the kiosk waits without a touch or a key before it starts over, so the next person never
 * sees the previous one's data (frontends/kiosk/README.md "Decisions").
 */
export const IDLE_RESET_MS = {
  /** On "¡Todo listo!": long enough to read the message. */
  complete: 30_000,
  /** On a half-filled form someone walked away from. */
  form: 120_000,
} as const;
