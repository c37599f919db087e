import type { HeldAppointment } from '@crm/contracts';

/**
 * What the kiosk does with a patient who already holds an appointment (services/appointments/README.md
 * "The kiosk: has one today and be seen now"), decided from the 409 the booking calls answer with it:
 * - `registered`: already checked in — nothing to do, "¡Todo listo!";
 * - `checkIn`: its check-in window is open (today, from 2 h before) — `POST /dates/checkin`;
 * - `offer`: another day, or later today before the window opens — show it, offer "be seen now".
 */
export type HeldPlan = 'registered' | 'checkIn' | 'offer';

export function planForHeld(held: HeldAppointment): HeldPlan {
  if (held.status === 'checkedIn') return 'registered';
  if (held.checkInOpen) return 'checkIn';
  return 'offer';
}

/**
 * The patient's active appointment carried by a 409 of `POST /dates/service` or
 * `POST /dates/service/now` (`{message, errors, appointment}`), if the body has a well-formed one.
 */
export function heldAppointmentIn(status: number, body: unknown): HeldAppointment | undefined {
  if (status !== 409 || typeof body !== 'object' || body === null) return undefined;
  const held = (body as { appointment?: unknown }).appointment;
  if (typeof held !== 'object' || held === null) return undefined;
  const { id, date, status: heldStatus, today, checkInOpen } = held as Record<string, unknown>;
  if (typeof id !== 'string' || typeof date !== 'string' || Number.isNaN(Date.parse(date))) return undefined;
  if (heldStatus !== 'booked' && heldStatus !== 'checkedIn') return undefined;
  return { id, date, status: heldStatus, today: today === true, checkInOpen: checkInOpen === true };
}

/**
 * The appointment the patient is told about once their arrival is registered (a walk-in just booked
 * included): always the server's instant, never the terminal's clock.
 */
export interface RegisteredArrival {
  /** ISO instant of the appointment's start, as the server answered it. */
  date: string;
}

/**
 * The instant "¡Todo listo!" tells: the first well-formed `date` among the answers, newest first
 * (the check-in's answer, then the booking's or the 409's appointment).
 */
export function arrivalDate(...answers: ({ date?: unknown } | null | undefined)[]): string | undefined {
  for (const answer of answers) {
    const date = answer?.date;
    if (typeof date === 'string' && !Number.isNaN(Date.parse(date))) return date;
  }
  return undefined;
}
