/**
 * Issue 11 §3: Redis stopped → the gateway keeps serving: public calls, signed-in calls, sign-in and
 * the cached form configuration all answer as before and quickly; when Redis is back everything still
 * works. The product uses a Redis of this test's own (the gateway tests' PrivateRedis), so the
 * outage never reaches other tests.
 */
import { signInStaff, type Actor } from './support/actors';
import { PrivateRedis } from '../gateway/test/support/private-redis';
import { timed } from './support/faults';
import { call } from './support/http';
import { Summary } from './support/summary';
import { startSystemStack, STAFF_ACCOUNTS, type SystemStack } from './support/system-stack';

jest.setTimeout(90_000);

let redis: PrivateRedis;
let stack: SystemStack;
let doctor: Actor;
const summary = new Summary('fault: Redis stopped');

beforeAll(async () => {
  redis = await PrivateRedis.start();
  stack = await startSystemStack({ notifications: false, env: { REDIS_URL: redis.url } });
  doctor = await signInStaff(stack, 'doctor');
}, 120_000);

afterAll(async () => {
  summary.print();
  await stack?.stop();
  await redis?.stop();
});

/** The calls a user makes, each of which must keep working without Redis. */
function journey() {
  const get = (path: string, token?: string) => (signal: AbortSignal) =>
    call(stack.gatewayUrl, 'GET', path, { token, signal });
  return [
    ['GET /rooms (public)', get('/rooms')],
    ['GET /dates/booked (public)', get('/dates/booked')],
    ['GET /dates (signed in)', get('/dates', doctor.token)],
    ['GET /config/view (gateway cache)', get('/config/view?view=doctor/appointments/:id', doctor.token)],
    [
      'POST /auth/signIn',
      (signal: AbortSignal) =>
        call(stack.gatewayUrl, 'POST', '/auth/signIn', { body: STAFF_ACCOUNTS.admin, signal }),
    ],
  ] as const;
}

it('keeps serving while Redis is down, within a second per call, and after it is back', async () => {
  for (const [, request] of journey()) expect((await timed(request)).status).toBe(200);

  let slowest = 0;
  let failures: string[] = [];
  await redis.stop();
  const stoppedAt = Date.now();
  try {
    // Several rounds over a few seconds: the first calls meet the dropped connection, later ones
    // the reconnect attempts.
    while (Date.now() - stoppedAt < 4000) {
      for (const [name, request] of journey()) {
        const done = summary.case();
        const outcome = await timed(request, 5000);
        slowest = Math.max(slowest, outcome.ms);
        if (outcome.status === 200) done.pass();
        else failures.push(`${name}: ${outcome.status}`);
      }
    }
  } finally {
    await redis.start();
  }
  summary.set('Redis down for (ms)', Date.now() - stoppedAt);
  summary.set('slowest call while down (ms)', slowest);
  summary.set('failed calls while down', failures.length);
  expect(failures).toEqual([]);
  expect(slowest).toBeLessThan(1000);

  // Back to normal: the same calls work, and the gateway uses Redis again (cache hits).
  failures = [];
  const recoveredAt = Date.now();
  for (const [name, request] of journey()) {
    const outcome = await timed(request);
    if (outcome.status !== 200) failures.push(`${name}: ${outcome.status}`);
  }
  summary.set('calls failed after recovery', failures.length);
  expect(failures).toEqual([]);
  const cached = await call(stack.gatewayUrl, 'GET', '/config/view?view=doctor/appointments/:id', {
    token: doctor.token,
  });
  expect(cached.status).toBe(200);
  summary.set('checked after recovery within (ms)', Date.now() - recoveredAt);
});
