import { unconfirmedReleaseAt } from '@crm/contracts/booking-rules';
import { formatDate, formatTime } from '@crm/web-kit/time';

/** Said on the booking page to a signed-in patient whose e-mail is not confirmed, before they book. */
export const UNCONFIRMED_BOOKING_NOTICE =
  'Su correo electrónico aún no está confirmado. Puede reservar, pero si no lo confirma en las 24 horas siguientes (y, como tarde, 2 horas antes de la cita), la cita se liberará.';

/**
 * Added to the booking's confirmation for such a patient: until when they must confirm. Nothing
 * when the booking was made too close to the start to be released (it is kept).
 */
export function releaseWarning(slot: string, bookedAt = new Date()): string {
  const releaseAt = unconfirmedReleaseAt(new Date(slot), bookedAt);
  if (!releaseAt) return '';
  return ` Confirme su correo electrónico antes del ${formatDate(releaseAt)} a las ${formatTime(releaseAt)}: si no, la cita se liberará.`;
}
