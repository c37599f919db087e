/**
 * Faults: RabbitMQ stopped and started (`rabbitmqctl stop_app` / `start_app`) during 500
 * sign-ups and bookings (250 patients sign up, each books a slot), batched concurrently: 40 %
 * before the outage, 20 % while the broker is down, the rest while it comes back. Every call
 * succeeds, and every e-mail (250 confirmations, 250 booking confirmations) arrives exactly once.
 * The broker is ALWAYS started again.
 */
import { randomBytes } from 'node:crypto';
import { slotAllocator } from '../test-support/slots';
import { uniquePhone } from '../test-support/patients';
import { ensureBrokerRunning, rabbitmqctl } from '../test-support/faults';
import { call } from './support/http';
import { runPool, StatusTally } from './support/load';
import { MailTally, mailKey } from './support/mail-tally';
import { Summary } from './support/summary';
import { startSystemStack, STAFF_ACCOUNTS, type SystemStack } from './support/system-stack';

jest.setTimeout(300_000);

const PATIENTS = 250; // 250 sign-ups + 250 bookings = 500 operations, 500 e-mails
const CONCURRENCY = 25;
const TITLE = 'fault: RabbitMQ stopped during 500 sign-ups and bookings';

/** One try of the test: its own product, and its own prefix for accounts and e-mails. */
interface Try {
  stack: SystemStack;
  mail: MailTally;
  emailOf(i: number): string;
}

let current: Try | undefined;
let summary = new Summary(TITLE);

/**
 * Each try has a product, accounts and e-mails of its own: when jest tries the test a second time,
 * the first try's patients, slots and e-mails must not be met again.
 */
async function freshTry(): Promise<Try> {
  await endTry();
  await ensureBrokerRunning();
  const run = `brk${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
  summary = new Summary(TITLE);
  const stack = await startSystemStack();
  current = { stack, mail: new MailTally(stack.mailApiUrl, run), emailOf: (i) => `${run}-${i}@example.test` };
  return current;
}

async function endTry(): Promise<void> {
  if (!current) return;
  const { stack, mail } = current;
  current = undefined;
  await mail.stop();
  await mail.deleteAll();
  await stack.stop();
}

afterAll(async () => {
  await ensureBrokerRunning();
  summary.print();
  await endTry();
});

it('loses and duplicates no e-mail and fails no call when RabbitMQ stops and starts mid-load', async () => {
  const { stack, mail, emailOf } = await freshTry();
  const slots = slotAllocator(14);
  const slotOf = Array.from({ length: PATIENTS }, () => slots.next());
  const answers = new StatusTally();
  const failures: string[] = [];

  /** One patient: sign up, then book with the session the sign-up returned. */
  const patient = async (i: number) => {
    const done = summary.case();
    const signUp = await call(stack.gatewayUrl, 'POST', '/auth/signUp', {
      body: { name: `Paciente ${i}`, phone: uniquePhone(), email: emailOf(i), password: 'Clave1234!' },
    }).catch(() => ({ status: 0, body: undefined }));
    answers.record(signUp.status);
    if (signUp.status !== 201) return void failures.push(`sign-up ${i}: ${signUp.status}`);
    const booking = await call(stack.gatewayUrl, 'POST', '/dates', {
      token: signUp.body.sessiontoken,
      body: { date: slotOf[i] },
    }).catch(() => ({ status: 0 }));
    answers.record(booking.status);
    if (booking.status !== 201) return void failures.push(`booking ${i}: ${booking.status}`);
    done.pass();
  };

  mail.start();
  // 40 % before the outage, 20 % while the broker is down (kept short: other runs share it), the
  // rest while it starts again and after.
  const downAt = Math.floor(PATIENTS * 0.4);
  const upAt = Math.floor(PATIENTS * 0.6);
  let phaseStarted = Date.now();
  const phase = (name: string) => {
    summary.set(`${name} (ms)`, Date.now() - phaseStarted);
    phaseStarted = Date.now();
  };
  await runPool(0, downAt, CONCURRENCY, patient);
  phase('first 40 %, broker up');

  let outageStarted = 0;
  let brokerBackAt = 0;
  try {
    outageStarted = Date.now();
    await rabbitmqctl('stop_app');
    phase('stop_app');
    await runPool(downAt, upAt, CONCURRENCY, patient);
    phase('next 20 %, broker down');
    // The broker comes back while the rest is under way.
    const restart = rabbitmqctl('start_app').then(() => (brokerBackAt = Date.now()));
    await runPool(upAt, PATIENTS, CONCURRENCY, patient);
    phase('last 40 %, broker starting');
    await restart;
  } finally {
    await ensureBrokerRunning();
  }
  const loadDoneAt = Date.now();
  summary.set('broker down for (ms)', (brokerBackAt || Date.now()) - outageStarted);

  const expected = Array.from({ length: PATIENTS }, (_, i) => [
    mailKey(emailOf(i), 'Confirme su cuenta'),
    mailKey(emailOf(i), 'Cita confirmada'),
  ]).flat();
  await mail.stop();
  // One worker sends one e-mail at a time (a crash repeats at most one): the backlog of 500 takes
  // a minute or two on a CI machine, so lateness is allowed for, loss and duplicates are not.
  await mail.waitFor(expected, 180_000);
  const allArrivedAfter = Date.now() - loadDoneAt;
  // Late copies would show up shortly after the last original: look again after a pause.
  await new Promise((resolve) => setTimeout(resolve, 5000));
  await mail.poll();
  const { lost, duplicates, unexpected } = mail.compare(expected);

  // No double booking: one booked appointment per patient and per slot.
  const admin = await stack.signIn(STAFF_ACCOUNTS.admin.email, STAFF_ACCOUNTS.admin.password);
  const listed = await call(stack.gatewayUrl, 'GET', '/dates?limit=100&status=booked', { token: admin });

  summary.set('operations', PATIENTS * 2);
  summary.set('answers', answers.toString());
  summary.set(
    '5xx answers',
    answers.count((status) => status >= 500 || status === 0),
  );
  summary.set('e-mails expected', expected.length);
  summary.set('lost e-mails', lost);
  summary.set('duplicate e-mails', duplicates);
  summary.set('booked appointments', listed.body.total);
  summary.set('double bookings', Math.max(0, listed.body.total - PATIENTS));
  summary.set('all e-mails in, after the load (ms)', allArrivedAfter);

  expect(failures).toEqual([]);
  expect({ lost, duplicates, unexpected }).toEqual({ lost: 0, duplicates: 0, unexpected: 0 });
  expect(listed.body.total).toBe(PATIENTS);
});
