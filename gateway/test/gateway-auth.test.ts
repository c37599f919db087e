import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import jwt from 'jsonwebtoken';
import { sessionKeys } from '@crm/contracts';
import { publicJwkOf } from '@crm/server-kit';
import {
  eventually,
  hostileTokens,
  mintSession,
  mintToken,
  newSigningKey,
  type RunningServer,
  TEST_SIGNING_KEY,
  uniqueName,
} from '@crm/testing';
import { REDIS_URL, startGateway, type RunningGateway } from './support/gateway';
import { rawRequest, startEchoUpstream, type Echo } from './support/upstreams';

const patient = () => ({ id: uniqueName('user'), rol: 'PACIENT' as const });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

let auth: RunningServer;
let appointments: RunningServer;
let rooms: RunningServer;
let gw: RunningGateway;
let redis: Redis;

beforeAll(async () => {
  [auth, appointments, rooms] = await Promise.all([
    startEchoUpstream('auth'),
    startEchoUpstream('appointments'),
    startEchoUpstream('rooms'),
  ]);
  gw = await startGateway({
    AUTH_SERVICE_URL: auth.url,
    APPOINTMENTS_SERVICE_URL: appointments.url,
    ROOMS_SERVICE_URL: rooms.url,
  });
  redis = new Redis(REDIS_URL);
});

afterAll(async () => {
  await gw.close();
  await Promise.all([auth.close(), appointments.close(), rooms.close()]);
  redis.disconnect();
});

async function call(
  path: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Echo & { message?: string } }> {
  const res = await fetch(gw.url + path, init);
  return { status: res.status, body: (await res.json()) as Echo & { message?: string } };
}

describe('public routes', () => {
  it.each([
    ['POST', '/api/v1/auth/signIn', 'auth', '/auth/signIn'],
    ['POST', '/api/v1/auth/signUp', 'auth', '/auth/signUp'],
    ['POST', '/api/v1/auth/forgotPassword', 'auth', '/auth/forgotPassword'],
    ['POST', '/api/v1/auth/resetPassword/abc123', 'auth', '/auth/resetPassword/abc123'],
    ['GET', '/api/v1/auth/confirmAccount/abc123', 'auth', '/auth/confirmAccount/abc123'],
    ['GET', '/api/v1/dates/booked', 'appointments', '/dates/booked'],
    ['GET', '/api/v1/rooms', 'rooms', '/rooms'],
  ])(
    '%s %s reaches the service without a token, prefix stripped',
    async (method, path, upstream, servicePath) => {
      const { status, body } = await call(path, {
        method,
        headers: { 'content-type': 'application/json' },
        body: method === 'POST' ? '{}' : undefined,
      });
      expect(status).toBe(200);
      expect(body.upstream).toBe(upstream);
      expect(body.path).toBe(servicePath);
      expect(body.method).toBe(method);
    },
  );

  it('keeps the query string when stripping the prefix', async () => {
    const { body } = await call('/api/v1/dates/booked?from=2025-01-01&to=x%20y');
    expect(body.path).toBe('/dates/booked?from=2025-01-01&to=x%20y');
  });

  it('does not treat a path below a public route as public', async () => {
    expect((await call('/api/v1/dates/booked/extra')).status).toBe(401);
    expect((await call('/api/v1/rooms', { method: 'POST' })).status).toBe(401);
    expect((await call('/api/v1/auth/resetPassword/', { method: 'POST' })).status).toBe(401);
  });

  it('refuses dot segments and encoded slashes that could disguise a protected path as a public one', async () => {
    for (const path of [
      '/api/v1/dates/booked/../../records',
      '/api/v1/dates/booked/%2e%2e/%2E%2e/records',
      '/api/v1/rooms%2f..%2fusers',
      '/api/v1/rooms/.',
    ]) {
      const res = await rawRequest(gw.url, { path });
      expect([path, res.status]).toEqual([path, 400]);
    }
  });
});

describe('protected routes', () => {
  it('answers 401 Unauthorized without a token', async () => {
    const { status, body } = await call('/api/v1/dates');
    expect(status).toBe(401);
    expect(body).toEqual({ message: 'Unauthorized' });
  });

  it('answers 401 TokenExpiredError for an expired token', async () => {
    const { status, body } = await call('/api/v1/dates', {
      headers: bearer(hostileTokens.expired(patient())),
    });
    expect(status).toBe(401);
    expect(body).toEqual({ message: 'TokenExpiredError' });
  });

  it.each([
    ['a tampered signature', () => hostileTokens.tampered(patient())],
    ['alg none', () => hostileTokens.algNone(patient())],
    ['no exp claim', () => hostileTokens.withoutExpiry(patient())],
    [
      'RS512 instead of the pinned RS256',
      () => {
        const now = Math.floor(Date.now() / 1000);
        return jwt.sign(
          { sub: 'u', rol: 'PACIENT', jti: 'j', iat: now, exp: now + 600 },
          TEST_SIGNING_KEY.privateKey,
          { algorithm: 'RS512', keyid: TEST_SIGNING_KEY.kid },
        );
      },
    ],
    ['another key', () => hostileTokens.otherKey(patient())],
    ['another key under the trusted kid', () => hostileTokens.otherKeyTrustedKid(patient())],
    ['HS256 and the public key (PEM) as secret', () => hostileTokens.hs256WithPublicKey(patient(), 'pem')],
    ['HS256 and the public key (JWK) as secret', () => hostileTokens.hs256WithPublicKey(patient(), 'jwk')],
    ['no kid', () => hostileTokens.withoutKid(patient())],
    ['an unknown kid', () => hostileTokens.unknownKid(patient())],
    ['garbage', () => 'not-a-jwt'],
  ])('answers 401 Unauthorized for a token with %s', async (_case, token) => {
    const { status, body } = await call('/api/v1/records', { headers: bearer(token()) });
    expect(status).toBe(401);
    expect(body).toEqual({ message: 'Unauthorized' });
  });

  it('answers 401 for a non-bearer Authorization scheme', async () => {
    const token = mintToken(patient());
    expect((await call('/api/v1/dates', { headers: { authorization: `Basic ${token}` } })).status).toBe(401);
  });

  it('passes a valid token through to the service with Authorization unchanged', async () => {
    const token = mintToken(patient());
    const { status, body } = await call('/api/v1/dates/currentDate', { headers: bearer(token) });
    expect(status).toBe(200);
    expect(body.path).toBe('/dates/currentDate');
    expect(body.headers.authorization).toBe(`Bearer ${token}`);
  });

  it('answers 401 at once for a signed-out token (revoked jti in Redis, announced), though it was just used', async () => {
    await eventually(() => gw.gateway.sessions.remembering(), 5000, 'the announcements subscription');
    const { token, claims } = mintSession(patient());
    // Used twice: the second answer comes from what the gateway remembers.
    expect((await call('/api/v1/dates', { headers: bearer(token) })).status).toBe(200);
    expect((await call('/api/v1/dates', { headers: bearer(token) })).status).toBe(200);
    // As the auth service does it: the key, then the announcement.
    await redis.set(sessionKeys.revokedToken(claims.jti), '1', 'EX', 60);
    await redis.publish(sessionKeys.endedChannel, JSON.stringify({ tokenId: claims.jti }));
    const { status, body } = await call('/api/v1/dates', { headers: bearer(token) });
    expect(status).toBe(401);
    expect(body).toEqual({ message: 'Unauthorized' });
  });

  it('refuses a password-reset user’s older token at once after the announcement, though it was just used', async () => {
    await eventually(() => gw.gateway.sessions.remembering(), 5000, 'the announcements subscription');
    const user = patient();
    const token = mintToken(user);
    expect((await call('/api/v1/dates', { headers: bearer(token) })).status).toBe(200);
    const validAfter = Math.floor(Date.now() / 1000) + 5;
    await redis.set(sessionKeys.validAfter(user.id), String(validAfter), 'EX', 60);
    await redis.publish(sessionKeys.endedChannel, JSON.stringify({ userId: user.id, validAfter }));
    expect((await call('/api/v1/dates', { headers: bearer(token) })).status).toBe(401);
  });

  it('remembers a valid answer no longer than SESSION_CHECK_CACHE_MS, and not at all with 0', async () => {
    const short = await startGateway({
      APPOINTMENTS_SERVICE_URL: appointments.url,
      SESSION_CHECK_CACHE_MS: '300',
    });
    const never = await startGateway({
      APPOINTMENTS_SERVICE_URL: appointments.url,
      SESSION_CHECK_CACHE_MS: '0',
    });
    try {
      await eventually(() => short.gateway.sessions.remembering(), 5000, 'the announcements subscription');
      expect(never.gateway.sessions.remembering()).toBe(false);
      const { token, claims } = mintSession(patient());
      const status = async (g: RunningGateway) =>
        (await fetch(`${g.url}/api/v1/dates`, { headers: bearer(token) })).status;
      expect([await status(short), await status(never)]).toEqual([200, 200]);
      // Written without an announcement (as if it were lost): only the bound of remembering applies.
      await redis.set(sessionKeys.revokedToken(claims.jti), '1', 'EX', 60);
      expect(await status(never)).toBe(401);
      expect(await status(short)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 350));
      expect(await status(short)).toBe(401);
    } finally {
      await Promise.all([short.close(), never.close()]);
    }
  });

  it('answers 401 for a token issued before the user’s valid-after instant (password reset)', async () => {
    const user = patient();
    const token = mintToken(user);
    const now = Math.floor(Date.now() / 1000);
    await redis.set(sessionKeys.validAfter(user.id), String(now + 5), 'EX', 60);
    expect((await call('/api/v1/dates', { headers: bearer(token) })).status).toBe(401);
  });

  it('accepts a token issued at or after the valid-after instant', async () => {
    const user = patient();
    const now = Math.floor(Date.now() / 1000);
    await redis.set(sessionKeys.validAfter(user.id), String(now - 5), 'EX', 60);
    expect((await call('/api/v1/dates', { headers: bearer(mintToken(user)) })).status).toBe(200);
  });
});

describe('keys from the auth service', () => {
  it('learns a new key on its first token, and answers 503 (not 401) while the auth service cannot be asked', async () => {
    let published = [publicJwkOf(TEST_SIGNING_KEY.publicKey)];
    const jwks = createServer((req, res) => {
      expect(req.url).toBe('/auth/.well-known/jwks.json');
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', resolve));
    const viaJwks = await startGateway({
      AUTH_SERVICE_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}`,
      JWT_PUBLIC_KEYS: '',
      APPOINTMENTS_SERVICE_URL: appointments.url,
    });
    const status = async (token: string) =>
      (await fetch(`${viaJwks.url}/api/v1/dates`, { headers: bearer(token) })).status;
    try {
      const known = mintToken(patient());
      expect(await status(known)).toBe(200);
      const rotated = newSigningKey();
      published = [...published, publicJwkOf(rotated.publicKey)];
      expect(await status(mintToken(patient(), 600, rotated))).toBe(200);
      expect(await status(hostileTokens.otherKey(patient()))).toBe(401);

      await new Promise((resolve) => jwks.close(resolve));
      jwks.closeAllConnections();
      const { status: code, body } = await (async () => {
        const response = await fetch(`${viaJwks.url}/api/v1/dates`, {
          headers: bearer(hostileTokens.otherKey(patient())),
        });
        return { status: response.status, body: (await response.json()) as { message: string } };
      })();
      expect(code).toBe(503);
      expect(body.message).toMatch(/no está disponible/);
      // Keys already known keep working while the auth service is away.
      expect(await status(known)).toBe(200);
      expect(await status(mintToken(patient(), 600, rotated))).toBe(200);
    } finally {
      await viaJwks.close();
      jwks.close();
    }
  });
});

describe('forwarded headers', () => {
  it('never lets client-sent identity headers reach a service, in any case', async () => {
    const { body } = await call('/api/v1/dates', {
      headers: {
        ...bearer(mintToken(patient())),
        'X-User-Id': 'admin-id',
        'X-User-Rol': 'ADMIN',
        'x-USER-email': 'a@b.c',
        'X-Forwarded-User': 'admin',
        'X-Authenticated-User': 'admin',
        'X-Authenticated-Rol': 'ADMIN',
      },
    });
    const names = Object.keys(body.headers);
    expect(names.filter((n) => /^x-user-|^x-forwarded-user$|^x-authenticated-/.test(n))).toEqual([]);
  });

  it('strips identity headers on public routes too', async () => {
    const { body } = await call('/api/v1/rooms', { headers: { 'X-User-Id': 'admin-id' } });
    expect(body.headers['x-user-id']).toBeUndefined();
  });

  it("makes its own X-Request-Id (the client's, if harmless, goes on as X-Client-Request-Id) and X-Forwarded-For", async () => {
    const sent = await fetch(`${gw.url}/api/v1/rooms`, { headers: { 'x-request-id': 'abc-123' } });
    const echoed = ((await sent.json()) as Echo).headers;
    expect(sent.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    expect(echoed['x-request-id']).toBe(sent.headers.get('x-request-id'));
    expect(echoed['x-client-request-id']).toBe('abc-123');

    const replaced = await call('/api/v1/rooms', {
      headers: {
        'x-request-id': 'bad id\twith spaces',
        'x-client-request-id': 'forged-by-client',
        'x-forwarded-for': '6.6.6.6',
      },
    });
    expect(replaced.body.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(replaced.body.headers['x-client-request-id']).toBeUndefined();
    // No trusted proxy in front: a client-sent X-Forwarded-For is replaced by the real peer.
    expect(replaced.body.headers['x-forwarded-for']).toBe('127.0.0.1');
  });

  it('gives gateway-made errors an X-Request-Id too', async () => {
    const res = await fetch(`${gw.url}/api/v1/dates`);
    expect(res.status).toBe(401);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });
});
