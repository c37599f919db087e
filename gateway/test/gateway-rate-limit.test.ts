import { Redis } from 'ioredis';
import { eventually, mintToken, type RunningServer, uniqueName } from '@crm/testing';
import { retryAfterSeconds } from '../src/rate-limit';
import { isReady, REDIS_URL, startGateway } from './support/gateway';
import { hasRedisServerBinary, PrivateRedis } from './support/private-redis';
import { startEchoUpstream } from './support/upstreams';

let auth: RunningServer;
let rooms: RunningServer;

beforeAll(async () => {
  [auth, rooms] = await Promise.all([startEchoUpstream('auth'), startEchoUpstream('rooms')]);
});

afterAll(async () => {
  await Promise.all([auth.close(), rooms.close()]);
});

/** A failed sign-in (the echo upstream answers 401 to the password "wrong"), or a good one. */
const signIn = (url: string, password = 'wrong') =>
  fetch(`${url}/api/v1/auth/signIn`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'someone@example.com', password }),
  });

async function statuses(send: () => Promise<Response>, times: number): Promise<number[]> {
  const result: number[] = [];
  for (let i = 0; i < times; i++) result.push((await send()).status);
  return result;
}

describe('rate limits', () => {
  it('answers 429 JSON with Retry-After on sign-in after RATE_LIMIT_SIGNIN_FAILURES_MAX failures, in Spanish with the minutes to wait', async () => {
    const gw = await startGateway({ AUTH_SERVICE_URL: auth.url, RATE_LIMIT_SIGNIN_FAILURES_MAX: '3' });
    try {
      expect(await statuses(() => signIn(gw.url), 3)).toEqual([401, 401, 401]);
      const limited = await signIn(gw.url);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(14 * 60); // the default 15-minute window for sign-in
      expect(limited.headers.get('content-type')).toMatch(/application\/json/);
      expect(await limited.json()).toEqual({
        message: 'Demasiados intentos. Inténtelo de nuevo en 15 minutos.',
      });
    } finally {
      await gw.close();
    }
  });

  it('counts only failed sign-ins: many patients signing in from one address lock nobody out', async () => {
    const gw = await startGateway({ AUTH_SERVICE_URL: auth.url, RATE_LIMIT_SIGNIN_FAILURES_MAX: '3' });
    try {
      expect(await statuses(() => signIn(gw.url, 'right'), 11)).toEqual(Array(11).fill(200));
      expect(await statuses(() => signIn(gw.url), 3)).toEqual([401, 401, 401]);
      expect((await signIn(gw.url, 'right')).status).toBe(429);
    } finally {
      await gw.close();
    }
  });

  it('marks every proxied API answer Cache-Control: no-store', async () => {
    const gw = await startGateway({ AUTH_SERVICE_URL: auth.url, ROOMS_SERVICE_URL: rooms.url });
    try {
      for (const response of [await fetch(`${gw.url}/api/v1/rooms`), await signIn(gw.url)])
        expect(response.headers.get('cache-control')).toBe('no-store');
    } finally {
      await gw.close();
    }
  });

  it('computes the minutes of the message from Retry-After, rounded up', async () => {
    const gw = await startGateway({
      ROOMS_SERVICE_URL: rooms.url,
      RATE_LIMIT_MAX: '1',
      RATE_LIMIT_WINDOW_MS: '90000',
    });
    try {
      expect((await fetch(`${gw.url}/api/v1/rooms`)).status).toBe(200);
      const limited = await fetch(`${gw.url}/api/v1/rooms`);
      expect(limited.status).toBe(429);
      const retryAfter = Number(limited.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(60);
      expect(retryAfter).toBeLessThanOrEqual(90);
      expect(await limited.json()).toEqual({
        message: 'Demasiados intentos. Inténtelo de nuevo en 2 minutos.',
      });
    } finally {
      await gw.close();
    }
  });

  it('reads Retry-After, falling back to the window', () => {
    expect(retryAfterSeconds('900', 60_000)).toBe(900);
    expect(retryAfterSeconds(61, 60_000)).toBe(61);
    expect(retryAfterSeconds(undefined, 120_000)).toBe(120);
    expect(retryAfterSeconds('soon', 60_000)).toBe(60);
  });

  it('gives sign-up and forgot-password budgets of their own, and leaves other routes alone', async () => {
    const gw = await startGateway({
      AUTH_SERVICE_URL: auth.url,
      ROOMS_SERVICE_URL: rooms.url,
      RATE_LIMIT_AUTH_MAX: '2',
      RATE_LIMIT_SIGNIN_FAILURES_MAX: '2',
    });
    const post = (path: string) => () =>
      fetch(gw.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"password":"wrong"}',
      });
    try {
      expect(await statuses(post('/api/v1/auth/signIn'), 3)).toEqual([401, 401, 429]);
      expect(await statuses(post('/api/v1/auth/signUp'), 3)).toEqual([401, 401, 429]);
      expect(await statuses(post('/api/v1/auth/forgotPassword'), 3)).toEqual([401, 401, 429]);
      expect(await statuses(post('/api/v1/auth/resendConfirmation'), 3)).toEqual([401, 401, 429]);
      expect(await statuses(() => fetch(`${gw.url}/api/v1/rooms`), 3)).toEqual([200, 200, 200]);
    } finally {
      await gw.close();
    }
  });

  it('counts case and trailing-slash variants of sign-in against the same budget', async () => {
    const gw = await startGateway({ AUTH_SERVICE_URL: auth.url, RATE_LIMIT_SIGNIN_FAILURES_MAX: '2' });
    const token = mintToken({ id: uniqueName('user'), rol: 'PACIENT' });
    const post = (path: string) =>
      fetch(gw.url + path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: '{"password":"wrong"}',
      });
    try {
      expect((await post('/api/v1/auth/signIn')).status).toBe(401);
      expect((await post('/api/v1/auth/SIGNIN')).status).toBe(401);
      expect((await post('/api/v1/auth/signin/')).status).toBe(429);
    } finally {
      await gw.close();
    }
  });

  it('applies the global per-client limit to every API route', async () => {
    const gw = await startGateway({ ROOMS_SERVICE_URL: rooms.url, RATE_LIMIT_MAX: '4' });
    try {
      expect(await statuses(() => fetch(`${gw.url}/api/v1/rooms`), 5)).toEqual([200, 200, 200, 200, 429]);
      // Unknown routes and refused tokens count too, so scanning is limited as well.
      expect((await fetch(`${gw.url}/api/v1/nothing`)).status).toBe(429);
    } finally {
      await gw.close();
    }
  });

  it('shares the global count between replicas through Redis, each deciding in memory meanwhile', async () => {
    const shared = {
      ROOMS_SERVICE_URL: rooms.url,
      RATE_LIMIT_MAX: '4',
      RATE_LIMIT_SYNC_MS: '20',
      RATE_LIMIT_REDIS_PREFIX: `${uniqueName('rl')}:`,
    };
    const [a, b] = await Promise.all([startGateway(shared), startGateway(shared)]);
    const inspector = new Redis(REDIS_URL);
    const key = `${shared.RATE_LIMIT_REDIS_PREFIX}global:*`;
    const sharedCount = async () => Number(await inspector.get((await inspector.keys(key))[0] ?? 'none'));
    try {
      const rooms = (g: { url: string }) => () => fetch(`${g.url}/api/v1/rooms`);
      const shares = (count: number) =>
        eventually(async () => (await sharedCount()) === count, 2000, `${count}`);
      expect(await statuses(rooms(a), 2)).toEqual([200, 200]);
      await shares(2);
      // The second replica learns the first one's hits with its own first sync, RATE_LIMIT_SYNC_MS on.
      expect(await statuses(rooms(b), 1)).toEqual([200]);
      await shares(3);
      expect(await statuses(rooms(b), 2)).toEqual([200, 429]);
      await shares(5);
      // The first replica decides on the count it last saw plus its own hits, then learns the rest.
      expect(await statuses(rooms(a), 1)).toEqual([200]);
      await shares(6);
      expect(await statuses(rooms(a), 2)).toEqual([429, 429]);
    } finally {
      inspector.disconnect();
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('shares the counters between gateway replicas through Redis', async () => {
    const shared = {
      AUTH_SERVICE_URL: auth.url,
      RATE_LIMIT_SIGNIN_FAILURES_MAX: '3',
      RATE_LIMIT_REDIS_PREFIX: `${uniqueName('rl')}:`,
    };
    const [a, b] = await Promise.all([startGateway(shared), startGateway(shared)]);
    try {
      expect(await statuses(() => signIn(a.url), 2)).toEqual([401, 401]);
      expect(await statuses(() => signIn(b.url), 2)).toEqual([401, 429]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

const describeWithRedisBinary = hasRedisServerBinary() ? describe : describe.skip;

describeWithRedisBinary('when Redis goes down', () => {
  it('keeps the global limit in memory, and adds the hits counted meanwhile to Redis once it is back', async () => {
    const privateRedis = await PrivateRedis.start();
    const prefix = `${uniqueName('rl')}:`;
    const gw = await startGateway({
      REDIS_URL: privateRedis.url,
      ROOMS_SERVICE_URL: rooms.url,
      RATE_LIMIT_MAX: '3',
      RATE_LIMIT_SYNC_MS: '20',
      RATE_LIMIT_REDIS_PREFIX: prefix,
    });
    const inspector = new Redis(privateRedis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const roomsCall = () => fetch(`${gw.url}/api/v1/rooms`);
    try {
      await privateRedis.stop();
      await eventually(() => !isReady(gw.gateway.redis), 5000, 'gateway to notice the outage');
      expect(await statuses(roomsCall, 4)).toEqual([200, 200, 200, 429]);

      await privateRedis.start(); // empty: it keeps nothing on disk
      await eventually(() => isReady(gw.gateway.redis), 10000, 'gateway to reconnect to redis');
      expect((await roomsCall()).status).toBe(429);
      await inspector.connect();
      const shared = async () =>
        Number(await inspector.get((await inspector.keys(`${prefix}global:*`))[0] ?? 'none'));
      await eventually(async () => (await shared()) === 5, 5000, 'the five hits to reach redis');
    } finally {
      inspector.disconnect();
      await gw.close();
      await privateRedis.stop();
    }
  });

  it('keeps proxying, keeps rate-limiting in memory, and counts in Redis again once it is back', async () => {
    const privateRedis = await PrivateRedis.start();
    const prefix = `${uniqueName('rl')}:`;
    const gw = await startGateway({
      REDIS_URL: privateRedis.url,
      AUTH_SERVICE_URL: auth.url,
      ROOMS_SERVICE_URL: rooms.url,
      RATE_LIMIT_SIGNIN_FAILURES_MAX: '3',
      RATE_LIMIT_REDIS_PREFIX: prefix,
    });
    const inspector = new Redis(privateRedis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
    const token = mintToken({ id: uniqueName('user'), rol: 'PACIENT' });
    try {
      await signIn(gw.url);
      await inspector.connect();
      expect(await inspector.keys(`${prefix}signin-failures:*`)).toHaveLength(1);
      inspector.disconnect();

      await privateRedis.stop();
      await eventually(() => !isReady(gw.gateway.redis), 5000, 'gateway to notice the outage');
      // Deaf to sign-out announcements, it remembers no session answer.
      await eventually(
        () => !gw.gateway.sessions.remembering(),
        5000,
        'gateway to stop remembering sessions',
      );

      // Protected route: the session check is skipped (fail open), the token is still verified.
      const started = Date.now();
      const proxied = await fetch(`${gw.url}/api/v1/rooms/1`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(proxied.status).toBe(200);
      expect((await fetch(`${gw.url}/api/v1/rooms/1`)).status).toBe(401);
      expect(Date.now() - started).toBeLessThan(1000);

      // Limits still apply, counted in memory (not fail open).
      expect(await statuses(() => signIn(gw.url), 4)).toEqual([401, 401, 401, 429]);

      await privateRedis.start();
      await eventually(() => isReady(gw.gateway.redis), 10000, 'gateway to reconnect to redis');
      await eventually(
        () => gw.gateway.sessions.remembering(),
        10000,
        'gateway to listen to announcements again',
      );
      await inspector.connect();
      await inspector.flushall();
      expect((await signIn(gw.url)).status).toBe(401);
      expect(await inspector.keys(`${prefix}signin-failures:*`)).toHaveLength(1);
    } finally {
      inspector.disconnect();
      await gw.close();
      await privateRedis.stop();
    }
  });
});
