/**
 * Faults: Redis stopped → the gateway keeps serving: public calls, signed-in calls, sign-in and
 * the cached form configuration all answer as before and quickly; when Redis is back everything still
 * works. A session signed out while Redis is down is refused by every service (each keeps
 * its own copy of ended sessions), through the gateway and directly, and stays refused after. The product uses a Redis of this test's own (the gateway tests' PrivateRedis), so the
 * outage never reaches other tests.
 */
import type { ApiService } from '@crm/contracts';
import { eventually } from '@crm/testing';
import { signInStaff, type Actor } from './support/actors';
import { isReady } from '../gateway/test/support/gateway';
import { PrivateRedis } from '../gateway/test/support/private-redis';
import { timed } from '../test-support/faults';
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
  stack = await startSystemStack({
    notifications: false,
    env: { REDIS_URL: redis.url, SESSION_REDIS_SYNC_MS: '1000' },
  });
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

/** One read per service that verifies tokens: path through the gateway (and, minus the prefix, direct). */
const ADMIN_READS: ReadonlyArray<[ApiService, string]> = [
  ['auth', '/auth/currentUser'],
  ['appointments', '/dates'],
  ['records', '/records'],
  ['rooms', '/room-calendar/mine'],
  ['config', '/config/view?view=doctor/appointments/:id'],
  ['audit', '/audit'],
  ['reporting', '/reports/summary?from=2026-01-01&to=2026-01-31'],
];

/** The status of each read, through the gateway and straight to the service, with this token. */
async function readEverywhere(token: string): Promise<string[]> {
  const outcomes = await Promise.all(
    ADMIN_READS.flatMap(([service, path]) => [
      call(stack.gatewayUrl, 'GET', path, { token }).then((r) => `gateway ${path} ${r.status}`),
      call(stack.services[service].url, 'GET', path, { token, outsideApi: true }).then(
        (r) => `${service} ${path} ${r.status}`,
      ),
    ]),
  );
  return outcomes.sort();
}

it('refuses a session signed out while Redis is down, at every service and through the gateway, also after', async () => {
  const admin = await signInStaff(stack, 'admin');
  const before = await readEverywhere(admin.token);
  expect(before.filter((line) => !line.endsWith(' 200'))).toEqual([]);

  await redis.stop();
  let refusedAfterMs = -1;
  try {
    const signedOutAt = Date.now();
    expect((await call(stack.gatewayUrl, 'POST', '/auth/signOut', { token: admin.token })).status).toBe(200);
    // The services learn it from the auth service's event (their own copy), within a few seconds.
    for (;;) {
      const statuses = await readEverywhere(admin.token);
      if (statuses.every((line) => line.endsWith(' 401'))) break;
      if (Date.now() - signedOutAt > 10_000)
        expect(statuses.filter((line) => !line.endsWith(' 401'))).toEqual([]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    refusedAfterMs = Date.now() - signedOutAt;
  } finally {
    await redis.start();
  }
  summary.set('signed out while Redis down: refused everywhere after (ms)', refusedAfterMs);
  await eventually(() => isReady(stack.gateway.redis), 10_000, 'the gateway to reconnect to Redis');
  // Redis came back without the sign-out (its write failed): the services still refuse, and the
  // gateway's copy (which its config cache relies on) is written again by the auth service's
  // re-sync (every SESSION_REDIS_SYNC_MS, 1 s here).
  const backAt = Date.now();
  let after = await readEverywhere(admin.token);
  while (after.some((line) => !line.endsWith(' 401')) && Date.now() - backAt < 10_000) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    after = await readEverywhere(admin.token);
  }
  summary.set('refused everywhere again after Redis is back (ms)', Date.now() - backAt);
  expect(after.filter((line) => !line.endsWith(' 401'))).toEqual([]);
});
