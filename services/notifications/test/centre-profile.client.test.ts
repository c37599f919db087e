import type { ServerResponse } from 'node:http';
import { CENTRE_PROFILE_SEED, type CentreProfile } from '@crm/contracts';
import { listen, type RunningServer } from '@crm/testing';
import { CentreProfileClient } from '../src/data/centre-profile.client';

/**
 * The worker's reader of the centre profile against an HTTP server that answers `GET /config/centre`
 * the way the config service does (or fails to): what it caches, when it asks again, what it falls
 * back to. The real config service is used in centre-profile-mail.test.ts.
 */
type Behaviour = 'answer' | 'fail' | 'hang' | 'nonsense';

let server: RunningServer;
let behaviour: Behaviour = 'answer';
let served: CentreProfile;
let requests = 0;
const hanging: ServerResponse[] = [];

const profile = (version: number, address = `Calle Versión ${version}, 35002 Las Palmas`): CentreProfile => ({
  ...CENTRE_PROFILE_SEED,
  address,
  version,
  updatedAt: new Date().toISOString(),
});

beforeAll(async () => {
  server = await listen((req, res) => {
    requests++;
    if (req.url !== '/config/centre') return void res.writeHead(404).end();
    if (behaviour === 'hang') return void hanging.push(res);
    if (behaviour === 'fail')
      return void res.writeHead(503, { 'content-type': 'application/json' }).end('{}');
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(behaviour === 'nonsense' ? JSON.stringify({ version: 'x' }) : JSON.stringify(served));
  });
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await server?.close();
});
beforeEach(() => {
  behaviour = 'answer';
  served = profile(1);
  requests = 0;
});

let clock = 1_000_000;
const client = (ttlMs = 10_000, url = server.url) =>
  new CentreProfileClient({
    configServiceUrl: url,
    ttlMs,
    timeoutMs: 1_500,
    retryAfterMs: 5_000,
    now: () => clock,
  });

it('reads the profile once and keeps it for the TTL, then asks again', async () => {
  const reader = client(10_000);
  expect((await reader.current()).address).toBe(served.address);
  served = profile(2);
  clock += 9_000;
  expect((await reader.current()).address).toBe(profile(1).address);
  expect(requests).toBe(1);
  clock += 2_000;
  expect((await reader.current()).address).toBe(profile(2).address);
  expect(requests).toBe(2);
});

it('asks again at once when an event announces a newer version', async () => {
  const reader = client(60_000);
  await reader.current();
  served = profile(2);
  reader.invalidate(2);
  expect(reader.announcedVersion()).toBe(2);
  expect((await reader.current()).address).toBe(profile(2).address);
  expect(await reader.current()).toMatchObject({ version: 2 });
  expect(requests).toBe(2);
  reader.invalidate(1); // a late, older announcement changes nothing
  await reader.current();
  expect(requests).toBe(2);
});

it('shares one request between e-mails sent at the same time', async () => {
  const reader = client();
  const answers = await Promise.all([reader.current(), reader.current(), reader.current()]);
  expect(new Set(answers.map((answer) => answer.address))).toEqual(new Set([served.address]));
  expect(requests).toBe(1);
});

it.each<[Behaviour]>([['fail'], ['nonsense'], ['hang']])(
  'keeps the last profile it read when the config service answers "%s", and waits before asking again',
  async (failure) => {
    const reader = client(0); // no caching: every e-mail asks
    expect((await reader.current()).address).toBe(profile(1).address);
    behaviour = failure;
    reader.invalidate(2);
    const started = Date.now();
    expect((await reader.current()).address).toBe(profile(1).address);
    expect(Date.now() - started).toBeLessThan(5_000);
    const asked = requests;
    expect((await reader.current()).address).toBe(profile(1).address);
    expect(requests).toBe(asked); // within retryAfterMs: not asked again
    behaviour = 'answer';
    served = profile(3);
    clock += 5_001;
    expect((await reader.current()).address).toBe(profile(3).address);
  },
);

it('uses the seed when the config service was never reachable', async () => {
  const closed = await listen(() => undefined);
  await closed.close();
  const reader = client(10_000, closed.url);
  expect(await reader.current()).toEqual(CENTRE_PROFILE_SEED);
});

it('never goes back to an older version than one it has read', async () => {
  const reader = client(0);
  served = profile(3);
  await reader.current();
  served = profile(2);
  clock += 1;
  expect(await reader.current()).toMatchObject({ version: 3 });
});
