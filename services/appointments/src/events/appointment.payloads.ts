import type { Actor, Appointment } from '../domain/appointment';
import type { Patient } from '../domain/patient';
import type { SlotOffer } from '../domain/waitlist';

/*
 * The data of the events this service publishes, in the contracts' field names: other services read
 * the patient as `pacientId`, the name the public API uses, while the domain says `patientId`.
 */

/** What every appointment event carries (`by` only when a person did it). */
export function eventData(
  appointment: Pick<Appointment, 'id' | 'date' | 'patientId' | 'user' | 'channel' | 'bookingCode'>,
  by: Actor | undefined,
) {
  return {
    id: appointment.id,
    date: appointment.date.toISOString(),
    pacientId: appointment.patientId,
    user: appointment.user,
    channel: appointment.channel,
    ...(appointment.bookingCode ? { bookingCode: appointment.bookingCode } : {}),
    ...(by ? { by: { id: by.id, rol: by.rol } } : {}),
  };
}

/** `appointments.waitlist.offered.v1`: the slot held for the patient, and the token its link carries. */
export const slotOfferedData = (offer: SlotOffer, patient: Patient, token: string) => ({
  offerId: offer.id,
  token,
  date: offer.date.toISOString(),
  expiresAt: offer.expiresAt.toISOString(),
  pacientId: patient.id,
  user: patient,
});

/** `appointments.waitlist.offerExpired.v1`: the slot the patient let pass. */
export const offerExpiredData = (offer: SlotOffer, patient: Patient) => ({
  offerId: offer.id,
  date: offer.date.toISOString(),
  expiresAt: offer.expiresAt.toISOString(),
  pacientId: patient.id,
  user: patient,
});
