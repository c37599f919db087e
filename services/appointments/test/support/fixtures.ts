import { Types } from 'mongoose';
import moment from 'moment-timezone';
import {
  appointmentBooked,
  appointmentCheckedIn,
  CENTRE_TIME_ZONE,
  recordCreated,
  recordUpdated,
  type AppointmentUser,
  type BusParticipant,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { publishEnvelopes, sleep } from '@crm/testing';
import type { AppointmentsService } from '../../src/app';
import type { Actor, Appointment } from '../../src/domain/appointment';

/**
 * Appointments "in the past" or "checked in yesterday", which no call can create (the slot rules
 * refuse past instants), written through the service's own repositories: the same documents, keys
 * and events a booking and a check-in write. Production rules stay as they are.
 */

/** A patient the read model need not know (fixtures only): a fresh id and a snapshot. */
export function ghostPatient(label: string): AppointmentUser {
  const id = String(new Types.ObjectId());
  return { id, name: `Paciente ${label}`, email: `${label.toLowerCase()}-${id}@example.test` };
}

const system: Actor = { id: String(new Types.ObjectId()), rol: 'DOCTOR' };

/**
 * Books `patient` at `date` (any instant, past ones included) off the grid: as staff, or (`channel`
 * 'patient') as the patient's own web booking, optionally `bookedAt` another instant.
 */
export async function bookedAt(
  service: AppointmentsService,
  patient: AppointmentUser,
  date: Date,
  options: { channel?: 'staff' | 'patient'; bookedAt?: Date } = {},
): Promise<Appointment> {
  const channel = options.channel ?? 'staff';
  const by = channel === 'patient' ? { id: patient.id, rol: 'PACIENT' as const } : system;
  const appointment = {
    date,
    patientId: patient.id,
    user: patient,
    bookedBy: by,
    channel,
    // Off the grid (slot key `walkin:<id>`), so fixtures never compete for a slot.
    walkIn: true,
  };
  const booked = await service.repositories.appointments.book(appointment, ({ id, bookingCode }) =>
    createEnvelope(
      appointmentBooked,
      { id, date: date.toISOString(), pacientId: patient.id, user: patient, channel, by, bookingCode },
      'fixture',
    ),
  );
  if (options.bookedAt)
    await service.models.Appointment.updateOne({ _id: booked.id }, { $set: { bookedAt: options.bookedAt } });
  return booked;
}

/** Checks the appointment in at `at` (any instant), as the kiosk's check-in writes it. */
export async function checkedInAt(
  service: AppointmentsService,
  appointment: Appointment,
  at: Date,
): Promise<Appointment> {
  const done = await service.repositories.transitions.checkIn(appointment, at, system, (a) =>
    createEnvelope(
      appointmentCheckedIn,
      {
        id: a.id,
        date: a.date.toISOString(),
        pacientId: a.patientId,
        user: a.user,
        channel: a.channel,
        by: system,
        checkedInAt: at.toISOString(),
      },
      'fixture',
    ),
  );
  if (!done) throw new Error('fixture check-in refused');
  return done;
}

/** `minutes` from now (negative: ago). */
export const minutesFromNow = (minutes: number) => new Date(Date.now() + minutes * 60_000);

/** Today's (centre's time zone) midnight plus `minutes`, in milliseconds. */
const todayAfter = (minutes: number) =>
  moment.tz(CENTRE_TIME_ZONE).startOf('day').add(minutes, 'minutes').valueOf();

/** `minutes` ago, but never before today's third minute (centre's time zone): stays "today" near midnight. */
export const earlierToday = (minutes: number) =>
  new Date(Math.max(Date.now() - minutes * 60_000, todayAfter(2)));

/**
 * Resolves once the centre's day is at least `minutes` old: at once, except in a day's first minutes,
 * when something placed a minute ago would fall on yesterday.
 */
export async function pastStartOfDay(minutes: number): Promise<void> {
  const wait = todayAfter(minutes) - Date.now();
  if (wait > 0) await sleep(wait);
}

/** 10:00 of the day before today, in the centre's time zone. */
export const yesterdayAtTen = () =>
  moment.tz(CENTRE_TIME_ZONE).subtract(1, 'day').startOf('day').hours(10).toDate();

/** The centre's day of an instant, `YYYY-MM-DD`. */
export const centreDayOf = (instant: string | Date) =>
  moment.tz(new Date(instant).getTime(), CENTRE_TIME_ZONE).format('YYYY-MM-DD');

/** A deployable's broker URL (the stack's `busUrl`). */
type BusUrl = (publisher: BusParticipant) => string;

/** Publishes a `records.record.created.v1` envelope on the stack's exchange, as the records service does. */
export async function publishRecordCreated(
  busUrl: BusUrl,
  exchange: string,
  data: { id: string; userId: string; dateId: string; doctorId: string },
  eventId?: string,
): Promise<string> {
  return publishRecordEvent(
    busUrl,
    exchange,
    createEnvelope(recordCreated, { ...data, configVersion: 1 }, 'test-records', {
      ...(eventId ? { id: eventId } : {}),
    }),
  );
}

/** Publishes a `records.record.updated.v1` envelope (a record saved again), as the records service does. */
export function publishRecordUpdated(
  busUrl: BusUrl,
  exchange: string,
  data: { id: string; userId: string; dateId: string; doctorId: string },
): Promise<string> {
  return publishRecordEvent(
    busUrl,
    exchange,
    createEnvelope(recordUpdated, { ...data, configVersion: 1 }, 'test-records'),
  );
}

async function publishRecordEvent(
  busUrl: BusUrl,
  exchange: string,
  envelope: ReturnType<typeof createEnvelope>,
): Promise<string> {
  // As the records service's relay would: with its broker user, so the consumer accepts it.
  await publishEnvelopes(busUrl, exchange, [envelope]);
  return envelope.id;
}
