import mongoose from 'mongoose';
import { createLogger } from '@crm/server-kit';
import { appointmentBooked, CENTRE_PROFILE_SEED, WHAT_TO_BRING } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { slotAllocator } from '../../../test-support/slots';
import { reminderStore } from '../src/reminders/reminder.store';
import { reminderScheduleHandlers } from '../src/reminders/reminders';
import { DEPLOYABLES } from '../../../test-support/deployables';
import { startStack, type Stack } from '../../../test-support/stack';
import {
  appointmentsStackReady,
  createPatients,
  staffTokens,
  type TestPatient,
} from '../../appointments/test/support/people';

/**
 * Reminders: due times in the database, one e-mail per appointment also with two
 * workers polling, none for a cancelled appointment. The margin before the refund deadline is set
 * so that the first slot's reminder falls due a few seconds into the test. Then the plan (before
 * the refund window closes, or a few hours before the start, or none) with an injected clock, and
 * the wording on both sides of the deadline.
 */
const slots = slotAllocator(4);
/** Two slots in a row: the reminder of the first would have been due before it was booked. */
const earlier = slots.next();
const slot = slots.next();
/** With the seed's 24-hour refund window: due 18 s from now. */
const MARGIN_MINUTES = (Date.parse(slot) - Date.now()) / 60_000 - 24 * 60 - 0.3;
let stack: Stack;
let patients: TestPatient[];
let secondWorker: Awaited<ReturnType<typeof DEPLOYABLES.notifications.create>> | undefined;

beforeAll(async () => {
  const env = {
    REMINDER_BEFORE_REFUND_DEADLINE_MINUTES: String(MARGIN_MINUTES),
    // The reminder falls due seconds after the booking here.
    REMINDER_MIN_NOTICE_MINUTES: '0',
    REMINDER_POLL_MS: '500',
  };
  stack = await startStack({ components: ['auth', 'notifications', 'appointments'], env });
  await appointmentsStackReady(stack);
  patients = await createPatients(stack, (await staffTokens(stack)).DOCTOR, 3, 'reminders');
  // A second worker on the same database and queues, as a second replica would run.
  const first = stack.components.notifications!;
  secondWorker = await DEPLOYABLES.notifications.create(
    { ...stack.envFor('notifications'), MONGO_DB: first.database },
    createLogger('notifications-2', 'silent'),
  );
  await secondWorker.start();
  await secondWorker.consuming();
}, 60_000);
afterAll(async () => {
  await secondWorker?.stop();
  await stack?.stop();
});

const reminders = async (who: TestPatient) =>
  (await stack.mail.messagesTo(who.email)).filter((mail) => mail.Subject.startsWith('Recordatorio'));

it('sends one reminder before the refund deadline (two workers polling), none for a cancelled appointment or yet for a later-planned one', async () => {
  const [kept, cancelled, late] = patients as [TestPatient, TestPatient, TestPatient];
  // Cancelled: booked, then cancelled, on the slot the other patient then books.
  expect((await stack.api.post('/dates', { date: slot }, cancelled.token)).status).toBe(201);
  expect((await stack.api.delete(`/dates/${encodeURIComponent(slot)}`, cancelled.token)).status).toBe(200);
  expect((await stack.api.post('/dates', { date: slot }, kept.token)).status).toBe(201);
  // Late: a slot whose early reminder would have been due before the booking (its reminder is
  // planned a few hours before its start instead).
  expect((await stack.api.post('/dates', { date: earlier }, late.token)).status).toBe(201);

  const [mail] = await stack.mail.waitForMessagesTo(kept.email, 2, 40_000).then(async () => {
    for (const deadline = Date.now() + 40_000; Date.now() < deadline;) {
      const found = await reminders(kept);
      if (found.length > 0) return Promise.all(found.map((m) => stack.mail.message(m.ID)));
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error('no reminder within 40 s');
  });
  expect(mail!.Subject).toMatch(/^Recordatorio de su cita: /);
  expect(mail!.Text).toContain(WHAT_TO_BRING);
  expect(mail!.Text).toContain('http://crm.test/user');
  expect(mail!.Text).toContain('(24 horas antes de la cita), le devolveremos el importe pagado');
  expect(mail!.Text).toContain('después, la cancelación no se reembolsa');
  // Both workers polled several times since: still one, and none for the others.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(await reminders(kept)).toHaveLength(1);
  expect(await reminders(cancelled)).toHaveLength(0);
  expect(await reminders(late)).toHaveLength(0);
});

describe('the plan and the wording (injected clock)', () => {
  const HOUR = 3_600_000;
  const profile = { current: async () => CENTRE_PROFILE_SEED };
  const policy = { beforeDeadlineMs: 6 * HOUR, lateLeadMs: 3 * HOUR, minNoticeMs: HOUR };
  let connection: mongoose.Connection;
  let store: ReturnType<typeof reminderStore>;
  beforeAll(async () => {
    connection = await mongoose
      .createConnection(stack.mongoUrl, { dbName: stack.components.notifications!.database })
      .asPromise();
    store = reminderStore(connection);
  });
  afterAll(() => connection?.close());

  const user = (label: string) => ({
    id: `patient-${label}`,
    name: `Paciente ${label}`,
    email: `${label}@example.test`,
  });
  const stored = (id: string) => connection.collection('reminders').findOne({ _id: id as never });

  it('plans the reminder 30 h before (6 h before the 24-hour window closes), 3 h before when booked later, none when booked shortly before', async () => {
    const start = new Date(Date.now() + 5 * 24 * HOUR);
    let clock = new Date(start.getTime() - 4 * 24 * HOUR);
    const [[, booked]] = reminderScheduleHandlers(store, policy, profile, () => clock);
    const book = (id: string) =>
      booked(
        createEnvelope(
          appointmentBooked,
          {
            id,
            date: start.toISOString(),
            pacientId: user(id).id,
            user: user(id),
            channel: 'patient',
            by: { id: user(id).id, rol: 'PACIENT' },
          },
          'test',
        ),
        { queue: 'test', attempt: 1, redelivered: false },
      );
    const ids = ['early', 'late', 'inside', 'last'].map((label) => `${label}-${start.getTime()}`);

    await book(ids[0]!);
    expect((await stored(ids[0]!))?.dueAt).toEqual(new Date(start.getTime() - 30 * HOUR));

    // 28 h ahead: the early reminder would have been due 2 h ago.
    clock = new Date(start.getTime() - 28 * HOUR);
    await book(ids[1]!);
    expect((await stored(ids[1]!))?.dueAt).toEqual(new Date(start.getTime() - 3 * HOUR));

    // 23 h 43 min ahead, inside the window: a reminder too.
    clock = new Date(start.getTime() - (23 * 60 + 43) * 60_000);
    await book(ids[2]!);
    expect((await stored(ids[2]!))?.dueAt).toEqual(new Date(start.getTime() - 3 * HOUR));

    // 3 h 30 min ahead: 30 min later is too soon for another e-mail.
    clock = new Date(start.getTime() - 3.5 * HOUR);
    await book(ids[3]!);
    expect(await stored(ids[3]!)).toBeNull();
  });

  it('says a cancellation is no longer refunded when the reminder goes out inside the window', async () => {
    const [, patient] = patients as [TestPatient, TestPatient, TestPatient];
    const start = new Date(Date.now() + 20 * HOUR);
    await store.schedule(
      {
        appointmentId: `inside-window-${start.getTime()}`,
        date: start.toISOString(),
        user: { id: patient.id, name: 'Paciente tarde', email: patient.email },
      },
      new Date(),
    );
    for (const deadline = Date.now() + 30_000; ;) {
      const found = await reminders(patient);
      if (found.length > 0) {
        const mail = await stack.mail.message(found[0]!.ID);
        expect(mail.Text).toContain(
          'Faltan menos de 24 horas para la cita, por lo que el importe pagado ya no se devuelve',
        );
        expect(mail.Text).not.toContain('le devolveremos');
        break;
      }
      if (Date.now() > deadline) throw new Error('no reminder within 30 s');
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  });
});
