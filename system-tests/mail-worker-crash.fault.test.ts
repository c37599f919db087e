/**
 * Faults: the e-mail worker killed mid-stream. The worker runs as a child process
 * (`services/notifications/src/main.ts`); while 60 patients sign up and book (120 e-mails), it
 * is SIGKILLed twice while sending and started again each time. No e-mail is lost, and there are
 * at most as many duplicates as kills (a kill between the SMTP send and the ack can repeat the one
 * e-mail in flight). Messages a killed worker had claimed are taken over once their claim lease
 * ends (event-bus `claimLeaseMs`), so the last e-mails may take that long.
 */
import { randomBytes } from 'node:crypto';
import { eventually, sleep } from '@crm/testing';
import { slotAllocator } from '../test-support/slots';
import { uniquePhone } from '../test-support/patients';
import { call } from './support/http';
import { runPool, StatusTally } from './support/load';
import { MailTally, mailKey } from './support/mail-tally';
import { Summary } from './support/summary';
import type { SystemStack } from './support/system-stack';
import type { WorkerProcess } from './support/worker-process';
import { workerOnSystemStack } from './support/worker-on-stack';
import { MAIL_CLAIM_LEASE_MS } from '../services/notifications/src/app';

jest.setTimeout(300_000);

const PATIENTS = 60;
const KILL_AFTER_HANDLED = 15;
/** A copy finding a live claim is looked at again every 2 s (event-bus busyRetryMs), plus slack. */
const BUSY_RETRY_MARGIN_MS = 5000;
const RUN = `wrk${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
const emailOf = (i: number) => `${RUN}-${i}@example.test`;

let stack: SystemStack;
let worker: WorkerProcess;
let mail: MailTally;
const summary = new Summary('fault: e-mail worker killed mid-stream');

workerOnSystemStack(
  { run: RUN, summary, queues: ['account-mail', 'appointment-mail'] },
  (started) => ({ stack, worker, mail } = started),
);

it('loses no e-mail and duplicates at most one per kill when the worker is SIGKILLed twice', async () => {
  const slots = slotAllocator(21);
  const answers = new StatusTally();
  const failures: string[] = [];
  const load = runPool(0, PATIENTS, 10, async (i) => {
    const done = summary.case();
    const signUp = await call(stack.gatewayUrl, 'POST', '/auth/signUp', {
      body: { name: `Paciente ${i}`, phone: uniquePhone(), email: emailOf(i), password: 'Clave1234!' },
    });
    answers.record(signUp.status);
    if (signUp.status !== 201) return void failures.push(`sign-up ${i}: ${signUp.status}`);
    const booking = await call(stack.gatewayUrl, 'POST', '/dates', {
      token: signUp.body.sessiontoken,
      body: { date: slots.next() },
    });
    answers.record(booking.status);
    if (booking.status !== 201) return void failures.push(`booking ${i}: ${booking.status}`);
    done.pass();
  });

  // Two kills, each once the current worker is busy sending, each followed by a new worker.
  let lastKillAt = 0;
  for (let kill = 0; kill < 2; kill += 1) {
    await eventually(
      () => worker.handled >= KILL_AFTER_HANDLED,
      60_000,
      `${KILL_AFTER_HANDLED} e-mails handled`,
    );
    await worker.kill();
    lastKillAt = Date.now();
    worker.start();
  }
  await load;
  const loadDoneAt = Date.now();

  const expected = Array.from({ length: PATIENTS }, (_, i) => [
    mailKey(emailOf(i), 'Confirme su cuenta'),
    mailKey(emailOf(i), 'Cita confirmada'),
  ]).flat();
  // Claimed by a killed worker: redelivered at once, handled when the claim lease (30 s) ends.
  await mail.waitFor(expected, 180_000);
  const lastArrivedAfter = Date.now() - loadDoneAt;
  // A second copy of the e-mail a killed worker was sending comes when its claim is taken over:
  // look again once every claim of the last killed worker has expired and been retried.
  const takeoversDoneAt = lastKillAt + MAIL_CLAIM_LEASE_MS + BUSY_RETRY_MARGIN_MS;
  await sleep(Math.max(3000, takeoversDoneAt - Date.now()));
  await mail.poll();
  const { lost, duplicates, unexpected } = mail.compare(expected);

  summary.set('operations', PATIENTS * 2);
  summary.set('answers', answers.toString());
  summary.set('worker kills (SIGKILL)', worker.kills);
  summary.set('worker starts', worker.starts);
  summary.set('e-mails expected', expected.length);
  summary.set('lost e-mails', lost);
  summary.set('duplicate e-mails', duplicates);
  summary.set('last e-mail in, after the load (ms)', lastArrivedAfter);

  expect(failures).toEqual([]);
  expect(worker.kills).toBe(2);
  expect(lost).toBe(0);
  expect(unexpected).toBe(0);
  expect(duplicates).toBeLessThanOrEqual(worker.kills);
});
