import mongoose, { type Connection } from 'mongoose';
import { appointmentBooked, appointmentCancelled, CENTRE_PROFILE_SEED } from '@crm/contracts';
import { createEnvelope, OUTBOX_FIELDS } from '@crm/event-bus';
import { documentShape, infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { reminderStore, type ReminderStore } from '../src/reminders/reminder.store';
import { seedReminders } from '../src/reminders/reminder.seed-bulk';
import { claimDueReminders, reminderScheduleHandlers } from '../src/reminders/reminders';

/**
 * The bulk seed module (bench/growth) stores reminders as the schedule's handlers leave them (due,
 * or a tombstone) and sends as a claim leaves them, and the poller's claim treats them so.
 */
const HOUR = 3_600_000;
const now = new Date();
let connection: Connection;
let store: ReminderStore;
const user = (name: string) => ({ id: uniqueId(), name, email: `${uniqueName('reminder')}@example.test` });
const inDays = (days: number) => new Date(now.getTime() + days * 24 * HOUR);
const seeded = {
  /** Due an hour ago, its appointment ahead: the next claim takes it. */
  due: {
    appointmentId: uniqueId(),
    date: inDays(1),
    user: user('Paciente debido'),
    dueAt: new Date(now.getTime() - HOUR),
  },
  /** Due in two days. */
  later: { appointmentId: uniqueId(), date: inDays(4), user: user('Paciente después'), dueAt: inDays(2) },
  /** Claimed already (its e-mail requested). */
  claimed: {
    appointmentId: uniqueId(),
    date: inDays(1),
    user: user('Paciente avisado'),
    dueAt: new Date(now.getTime() - 2 * HOUR),
    claimedAt: new Date(now.getTime() - 2 * HOUR),
  },
  /** Its appointment ended. */
  ended: { appointmentId: uniqueId(), date: inDays(3), user: user('Paciente cancelado'), dueAt: null },
};
const written = { scheduled: uniqueId(), dropped: uniqueId() };

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('notifications_seed') })
    .asPromise();
  store = reminderStore(connection);
  expect(await seedReminders(connection, Object.values(seeded))).toEqual({ reminders: 4, sends: 1 });
  // The service's own path: the schedule's handlers fed a booking each, one of them then cancelled.
  const policy = { beforeDeadlineMs: 6 * HOUR, lateLeadMs: 3 * HOUR, minNoticeMs: HOUR };
  const profile = { current: async () => CENTRE_PROFILE_SEED };
  const [[, booked], , [, cancelled]] = reminderScheduleHandlers(store, policy, profile, () => now);
  const delivery = { queue: 'test', attempt: 1, redelivered: false };
  for (const id of Object.values(written)) {
    const patient = user(`Paciente ${id}`);
    const data = {
      id,
      date: inDays(5).toISOString(),
      pacientId: patient.id,
      user: patient,
      channel: 'patient' as const,
    };
    await booked(
      createEnvelope(appointmentBooked, { ...data, by: { id: patient.id, rol: 'PACIENT' } }, 'test'),
      delivery,
    );
  }
  const patient = user('Paciente cancelado');
  await cancelled(
    createEnvelope(
      appointmentCancelled,
      {
        id: written.dropped,
        date: inDays(5).toISOString(),
        pacientId: patient.id,
        user: patient,
        channel: 'patient',
        by: { id: patient.id, rol: 'PACIENT' },
        calendar: { uid: written.dropped, sequence: 0 },
      },
      'test',
    ),
    delivery,
  );
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const shapeOf = async (collection: string, id: string) =>
  // A claim's event is still in its outbox; a seeded send's was published.
  documentShape((await connection.collection(collection).findOne({ _id: id as never }))!, OUTBOX_FIELDS);

it('stores reminders and tombstones of the same shape as the schedule’s handlers', async () => {
  const scheduled = await shapeOf('reminders', written.scheduled);
  expect(scheduled).toEqual(['_id', 'date', 'dueAt', 'user', 'user.email', 'user.id', 'user.name']);
  for (const reminder of [seeded.due, seeded.later, seeded.claimed])
    expect(await shapeOf('reminders', reminder.appointmentId)).toEqual(scheduled);
  expect(await shapeOf('reminders', seeded.ended.appointmentId)).toEqual(
    await shapeOf('reminders', written.dropped),
  );
});

it('is claimed by the poller when due, once, and never when ended; its send shaped as a claim leaves it', async () => {
  expect(await claimDueReminders(store, now)).toBe(1);
  expect(await connection.collection('reminder_sends').countDocuments()).toBe(2);
  expect(await shapeOf('reminder_sends', seeded.claimed.appointmentId)).toEqual(
    await shapeOf('reminder_sends', seeded.due.appointmentId),
  );
  // The e-mail it requests is about the seeded appointment and patient.
  const send = await connection
    .collection('reminder_sends')
    .findOne({ _id: seeded.due.appointmentId as never });
  expect(send?.outbox?.[0]?.data).toMatchObject({
    appointmentId: seeded.due.appointmentId,
    date: seeded.due.date.toISOString(),
    user: seeded.due.user,
  });
  // Two and a half days on: the later one is due; the claimed one and the ended one never are.
  expect(await claimDueReminders(store, inDays(2.5))).toBe(1);
  const sends = await connection.collection('reminder_sends').find().toArray();
  expect(sends.map((send) => String(send._id)).sort()).toEqual(
    [seeded.due, seeded.claimed, seeded.later].map((r) => r.appointmentId).sort(),
  );
});
