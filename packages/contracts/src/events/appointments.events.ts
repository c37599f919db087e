import { z } from 'zod';
import { BOOKING_CHANNELS } from '../api/appointments';
import { ROLES } from '../roles';
import { defineEvent } from './envelope';

/** What every appointment event carries: enough for an e-mail and a calendar entry, nothing clinical. */
const appointmentChange = z.object({
  id: z.string(),
  date: z.iso.datetime({ offset: true }),
  pacientId: z.string(),
  user: z.object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    phone: z.string().optional(),
  }),
  channel: z.enum(BOOKING_CHANNELS),
  /** Who did it: the patient, a doctor or admin, or the kiosk's service account. */
  by: z.object({ id: z.string(), rol: z.enum(ROLES) }),
});

export const appointmentBooked = defineEvent('appointments.appointment.booked.v1', appointmentChange);
export const appointmentCancelled = defineEvent('appointments.appointment.cancelled.v1', appointmentChange);
export const appointmentDeleted = defineEvent('appointments.appointment.deleted.v1', appointmentChange);
