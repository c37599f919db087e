/**
 * Reminders: the e-mail worker killed around the due time. 40 reminders fall due a few
 * seconds into the test while the worker (a child process, `services/notifications/src/main.ts`,
 * polling every 300 ms) is SIGKILLed twice — once right at the due time, once while it sends — and
 * started again each time. No reminder is lost, and there are at most as many duplicates as kills:
 * a reminder is claimed once, by the insert that carries its event (outbox), and sent by the mail
 * queue, whose claims a killed worker gives up after the lease.
 */
import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { eventually, sleep } from '@crm/testing';
import { MailTally, mailKey } from './support/mail-tally';
import { Summary } from './support/summary';
import type { SystemStack } from './support/system-stack';
import type { WorkerProcess } from './support/worker-process';
import { workerOnSystemStack } from './support/worker-on-stack';
import { MAIL_CLAIM_LEASE_MS } from '../services/notifications/src/app';

jest.setTimeout(300_000);

const REMINDERS = 40;
const RUN = `rem${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const emailOf = (i: number) => `${RUN}-${i}@example.test`;
/** A copy finding a live claim is looked at again every 2 s (event-bus busyRetryMs), plus slack. */
const BUSY_RETRY_MARGIN_MS = 5000;

let stack: SystemStack;
let worker: WorkerProcess;
let mail: MailTally;
let database: string;
const summary = new Summary('fault: e-mail worker killed around reminders falling due');

workerOnSystemStack(
  { run: RUN, summary, queues: ['reminder-schedule', 'reminder-mail'], env: { REMINDER_POLL_MS: '300' } },
  (started) => ({ stack, worker, mail, database } = started),
);

it('loses no reminder and duplicates at most one per kill when the worker dies around the due time', async () => {
  const done = summary.case();
  // The schedule as the appointments' events leave it (shown by services/notifications/test):
  // 40 reminders due in 4 s, for appointments tomorrow.
  const dueAt = new Date(Date.now() + 4000);
  const connection = await mongoose.createConnection(stack.mongoUrl, { dbName: database }).asPromise();
  await connection.collection('reminders').insertMany(
    Array.from({ length: REMINDERS }, (_, i) => ({
      _id: `${RUN}-appointment-${i}` as never,
      dueAt,
      date: new Date(Date.now() + 86_400_000),
      user: { id: `${RUN}-patient-${i}`, name: `Paciente ${i}`, email: emailOf(i) },
    })),
  );
  await connection.close();

  // First kill right at the due time (claims and sends under way), the second once it sends again.
  await sleep(Math.max(0, dueAt.getTime() - Date.now()) + 300);
  await worker.kill();
  worker.start();
  await eventually(() => worker.handled >= 5, 60_000, 'five reminders handled');
  await worker.kill();
  const lastKillAt = Date.now();
  worker.start();

  const expected = Array.from({ length: REMINDERS }, (_, i) =>
    mailKey(emailOf(i), 'Recordatorio de su cita'),
  );
  await mail.waitFor(expected, 180_000);
  // A copy of the reminder a killed worker was sending comes when its claim is taken over.
  await sleep(Math.max(3000, lastKillAt + MAIL_CLAIM_LEASE_MS + BUSY_RETRY_MARGIN_MS - Date.now()));
  await mail.poll();
  const { lost, duplicates, unexpected } = mail.compare(expected);

  summary.set('reminders due', REMINDERS);
  summary.set('worker kills (SIGKILL)', worker.kills);
  summary.set('worker starts', worker.starts);
  summary.set('lost reminders', lost);
  summary.set('duplicate reminders', duplicates);
  expect(worker.kills).toBe(2);
  expect(lost).toBe(0);
  expect(unexpected).toBe(0);
  expect(duplicates).toBeLessThanOrEqual(worker.kills);
  done.pass();
});
