/**
 * Booking rules the browser needs as well as the servers. No dependencies (no zod), so a front end
 * can import this module cheaply from `@crm/contracts/src/booking-rules`.
 */

/** SPEC §9: a cancellation made more than the refund window before the start is refunded. */
export const isRefundable = (start: Date, cancelledAt: Date, windowHours: number): boolean =>
  start.getTime() - cancelledAt.getTime() > windowHours * 3_600_000;

/** What a patient brings to the check-up (the FAQ's list, the patient area, the reminder e-mail). */
export const WHAT_TO_BRING =
  'Traiga su DNI o NIE, gafas o lentillas si las usa y, si renueva el permiso de conducir, el permiso actual.';
