import { formatHours } from '@crm/web-kit';
import { isRefundable } from '@crm/contracts/booking-rules';

/**
 * The seeded profile's refund window (docs/product/centre-profile.md#refund-window): refunded when cancelled
 * more than 24 hours before the start.
 */
export const DEFAULT_REFUND_WINDOW_HOURS = 24;

/** The patient's appointment as `GET /dates/currentDate` answers it. */
export interface CurrentAppointment {
  /** Absent when there is none (and from servers older than the payments). */
  id?: string;
  date: string | null;
  /** `checkedIn` once the patient's arrival is registered: no move, no cancel from here. */
  status?: 'booked' | 'checkedIn';
  checkedInAt?: string;
  /** Made by a move inside the refund window: cancelling it is not refunded. */
  refundForfeited?: true;
  /** What the patient types at the kiosk on arrival (docs/product/kiosk.md#proof). */
  bookingCode?: string;
  /** Held unpaid until then (online payment required; docs/product/payments.md#slot-hold). */
  paymentDueBy?: string;
}

/** Whether cancelling the appointment now would be refunded. */
export const refundedIfCancelled = (
  current: CurrentAppointment & { date: string },
  windowHours: number,
  now = Date.now(),
) => !current.refundForfeited && isRefundable(new Date(current.date), new Date(now), windowHours);

/**
 * Before a move ("Cambiar cita"): a move keeps the refund status the appointment has now, so one
 * made inside the window makes the new appointment non-refundable.
 */
export function moveRefundNotice(
  current: CurrentAppointment & { date: string },
  windowHours: number,
  now = Date.now(),
): string {
  const hours = formatHours(windowHours);
  if (current.refundForfeited)
    return `Su cita ya no es reembolsable, porque se cambió cuando faltaban menos de ${hours}: la nueva tampoco lo será y, si la cancela, no se le devolverá el importe.`;
  if (!refundedIfCancelled(current, windowHours, now))
    return `Faltan menos de ${hours} para su cita: si la cambia, la nueva cita no será reembolsable y, si la cancela después, no se le devolverá el importe.`;
  return `Si cancela la nueva cita con más de ${hours} de antelación se le devolverá el importe pagado.`;
}
