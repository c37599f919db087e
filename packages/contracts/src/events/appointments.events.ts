import { z } from 'zod';
import { BOOKING_CHANNELS } from '../api/appointments';
import { ROLES } from '../roles';
import { defineEvent } from './envelope';

const actor = z.object({ id: z.string(), rol: z.enum(ROLES) });
const instant = z.iso.datetime({ offset: true });

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
  by: actor,
  /**
   * The code the patient shows at the kiosk (the booking e-mail prints it with its QR code). Absent
   * in events written before codes existed.
   */
  bookingCode: z.string().optional(),
});

/**
 * The calendar entry an appointment's e-mails carry: its UID stays the same when the appointment is
 * moved (a reschedule), and SEQUENCE grows with each change, so calendar apps move the event instead
 * of adding another. Absent: UID from the appointment id, SEQUENCE 0.
 */
export const calendarEntry = z.object({ uid: z.string(), sequence: z.number().int().min(0) });

export const appointmentBooked = defineEvent(
  'appointments.appointment.booked.v1',
  appointmentChange.extend({
    /**
     * A patient's web booking while the centre requires online payment: the slot is held unpaid until
     * this instant, then released unless a payment succeeded (docs/product/payments.md#slot-hold).
     */
    paymentDueBy: instant.optional(),
  }),
  {
    publishers: ['appointments'],
    consumers: ['notifications', 'payments', 'reporting'],
  },
);
export const appointmentCancelled = defineEvent(
  'appointments.appointment.cancelled.v1',
  appointmentChange.extend({
    /** The kiosk's "be seen now" cancelled it for this walk-in (booked right after, same patient). */
    replacedBy: z.string().optional(),
    /** Moved to this appointment (a reschedule): no cancellation e-mail, the rescheduled one says it all. */
    rescheduledTo: z.string().optional(),
    /**
     * Cancelled more than the centre's refund window before the start: the fee is refunded.
     * Absent on cancellations of another kind (kiosk swap, reschedule) and in older events.
     */
    refundable: z.boolean().optional(),
    /** Not refunded because a move inside the refund window made this appointment (not its own start). */
    refundForfeited: z.boolean().optional(),
    /**
     * Released by the service (`by` is then absent): `unconfirmedAccount`, the patient's account was
     * still unconfirmed 24 hours after booking or 2 hours before the start
     * (docs/product/patient-area.md#unconfirmed-accounts); `unpaid`, the centre requires online payment
     * and none succeeded while the slot was held (docs/product/payments.md#slot-hold).
     */
    endedBecause: z.enum(['unconfirmedAccount', 'unpaid']).optional(),
    by: actor.optional(),
    calendar: calendarEntry.optional(),
  }),
  {
    publishers: ['appointments'],
    consumers: ['appointments', 'notifications', 'payments', 'reporting'],
  },
);
/**
 * An appointment moved to another slot in one step (`POST /dates/reschedule`): `id`/`date` are the
 * new appointment, `previous` the one it replaces (ended as `cancelled` with `rescheduledTo`).
 */
export const appointmentRescheduled = defineEvent(
  'appointments.appointment.rescheduled.v1',
  appointmentChange.extend({
    previous: z.object({ id: z.string(), date: instant }),
    calendar: calendarEntry,
    /** A patient's move inside the refund window: cancelling the new appointment is not refunded. */
    refundForfeited: z.boolean().optional(),
    /** The moved appointment was held unpaid: the new one keeps the same end of the hold. */
    paymentDueBy: instant.optional(),
  }),
  {
    publishers: ['appointments'],
    consumers: ['notifications', 'payments', 'reporting'],
  },
);
export const appointmentDeleted = defineEvent('appointments.appointment.deleted.v1', appointmentChange, {
  publishers: ['appointments'],
  consumers: ['appointments', 'notifications', 'payments', 'reporting'],
});

/**
 * The lifecycle after booking (services/appointments/README.md, "Statuses"). `by` is the person who
 * did it; it is absent when the service decided by itself (the no-show sweep, the close of a past
 * day's check-ins, a new booking replacing a missed appointment) or a clinical record did (`recordId`).
 */
const lifecycleChange = appointmentChange.extend({ by: actor.optional() });
/** Who sends and who reads the lifecycle events. */
const lifecycleParties = {
  publishers: ['appointments'],
  consumers: ['notifications', 'payments', 'reporting'],
} as const;

/** booked → checkedIn: the patient arrived (kiosk, doctor or admin). */
export const appointmentCheckedIn = defineEvent(
  'appointments.appointment.checkedIn.v1',
  lifecycleChange.extend({ checkedInAt: instant }),
  lifecycleParties,
);
/** booked or checkedIn → attended. */
export const appointmentAttended = defineEvent(
  'appointments.appointment.attended.v1',
  lifecycleChange.extend({
    endedAt: instant,
    checkedInAt: instant.optional(),
    /** The clinical record whose creation marked it attended. */
    recordId: z.string().optional(),
  }),
  lifecycleParties,
);
/** booked → noShow. */
export const appointmentNoShow = defineEvent(
  'appointments.appointment.noShow.v1',
  lifecycleChange.extend({ endedAt: instant }),
  lifecycleParties,
);

/**
 * A freed slot offered to the first patient in a day's waiting list
 * (docs/product/patient-area.md#waiting-list): held for them until `expiresAt`; the e-mail's link
 * (`/dates/offer/<token>`) claims it. The token is useless once the offer has expired, so a copy left in a
 * queue tells nothing after that.
 */
export const waitlistSlotOffered = defineEvent(
  'appointments.waitlist.offered.v1',
  z.object({
    offerId: z.string(),
    token: z.string(),
    date: instant,
    expiresAt: instant,
    pacientId: z.string(),
    user: appointmentChange.shape.user,
  }),
  {
    publishers: ['appointments'],
    consumers: ['notifications'],
  },
);

/**
 * The centre will be closed (holiday, works) on the day of a booked appointment, or closes before it
 * ends (a shortened day), after the appointment was booked. The appointment stays booked; the patient
 * is told and invited to move it ("Cambiar cita" in the patient area). Sent once per appointment and
 * closure (`reason`, `closesAt`).
 */
export const appointmentDayClosed = defineEvent(
  'appointments.appointment.dayClosed.v1',
  appointmentChange.extend({
    by: actor.optional(),
    /** Why the centre is closed that day (the holiday's name, the closure's reason). */
    reason: z.string(),
    /** A shortened day: the centre closes at this time (`HH:mm`) that day. */
    closesAt: z.string().optional(),
  }),
  {
    publishers: ['appointments'],
    consumers: ['notifications'],
  },
);

/** A slot held for a patient of the waiting list that they did not claim in time: it will not be offered to them again. */
export const waitlistOfferExpired = defineEvent(
  'appointments.waitlist.offerExpired.v1',
  z.object({
    offerId: z.string(),
    date: instant,
    expiresAt: instant,
    pacientId: z.string(),
    user: appointmentChange.shape.user,
  }),
  {
    publishers: ['appointments'],
    consumers: ['notifications'],
  },
);
