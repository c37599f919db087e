/**
 * Booking rules the browser needs as well as the servers. No dependencies (no zod), so a front end
 * can import this module cheaply from `@crm/contracts/booking-rules`.
 */

/** A cancellation made more than the refund window before the start is refunded. */
export const isRefundable = (start: Date, cancelledAt: Date, windowHours: number): boolean =>
  start.getTime() - cancelledAt.getTime() > windowHours * 3_600_000;

/** What a patient brings to the check-up (the FAQ's list, the patient area, the reminder e-mail). */
export const WHAT_TO_BRING =
  'Traiga su DNI o NIE, gafas o lentillas si las usa y, si renueva el permiso de conducir, el permiso actual.';

/**
 * A patient's own booking made before their e-mail is confirmed is released, unless confirmed first,
 * at the earlier of these two moments (the appointments service's defaults: UNCONFIRMED_HOLD_HOURS,
 * UNCONFIRMED_RELEASE_BEFORE_MINUTES). A booking made when that moment had already passed is kept.
 */
export const UNCONFIRMED_RELEASE_DEFAULTS = { holdHours: 24, beforeStartMinutes: 120 };

/** When an unconfirmed patient's booking made at `bookedAt` is released, or undefined if it is kept. */
export function unconfirmedReleaseAt(
  start: Date,
  bookedAt: Date,
  policy = UNCONFIRMED_RELEASE_DEFAULTS,
): Date | undefined {
  const beforeStart = start.getTime() - policy.beforeStartMinutes * 60_000;
  if (beforeStart <= bookedAt.getTime()) return undefined;
  return new Date(Math.min(bookedAt.getTime() + policy.holdHours * 3_600_000, beforeStart));
}
