import { createLogger } from '@crm/server-kit';
import { WHAT_TO_BRING } from '@crm/contracts';
import { DEPLOYABLES } from '../../../test-support/deployables';
import { startStack, type Stack } from '../../../test-support/stack';
import {
  appointmentsStackReady,
  createPatients,
  staffTokens,
  type TestPatient,
} from '../../appointments/test/support/people';
import { slotAllocator } from '../../appointments/test/support/slots';

/**
 * Issue 17, "Reminders": due times in the database, one e-mail per appointment also with two
 * workers polling, none for a cancelled appointment or one booked after its due time. The lead time
 * is set so that the first slot's reminder falls due a few seconds into the test.
 */
const slots = slotAllocator(4);
/** Two slots in a row: the reminder of the first would have been due before it was booked. */
const earlier = slots.next();
const slot = slots.next();
const LEAD_MINUTES = (Date.parse(slot) - Date.now()) / 60_000 - 0.3;
let stack: Stack;
let patients: TestPatient[];
let secondWorker: Awaited<ReturnType<typeof DEPLOYABLES.notifications.create>> | undefined;

beforeAll(async () => {
  const env = { REMINDER_LEAD_MINUTES: String(LEAD_MINUTES), REMINDER_POLL_MS: '500' };
  stack = await startStack({ components: ['auth', 'notifications', 'appointments'], env });
  await appointmentsStackReady(stack);
  patients = await createPatients(stack, (await staffTokens(stack)).DOCTOR, 3, 'reminders');
  // A second worker on the same database and queues, as a second replica would run.
  const first = stack.components.notifications!;
  secondWorker = await DEPLOYABLES.notifications.create(
    { ...stack.env, MONGO_DB: first.database },
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

it('sends one reminder at the lead time (two workers polling), none for a cancelled or late-booked appointment', async () => {
  const [kept, cancelled, late] = patients as [TestPatient, TestPatient, TestPatient];
  // Cancelled: booked, then cancelled, on the slot the other patient then books.
  expect((await stack.api.post('/dates', { date: slot }, cancelled.token)).status).toBe(201);
  expect((await stack.api.delete(`/dates/${encodeURIComponent(slot)}`, cancelled.token)).status).toBe(200);
  expect((await stack.api.post('/dates', { date: slot }, kept.token)).status).toBe(201);
  // Late: a slot whose reminder would have been due before the booking.
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
  // Both workers polled several times since: still one, and none for the others.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(await reminders(kept)).toHaveLength(1);
  expect(await reminders(cancelled)).toHaveLength(0);
  expect(await reminders(late)).toHaveLength(0);
});
