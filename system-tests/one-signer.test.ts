/**
 * One signer: only the auth service signs session tokens (RS256, named by `kid`); every other
 * deployable verifies with the public keys it publishes (`GET /api/v1/auth/.well-known/jwks.json`).
 *  - A token signed with any other key, or made with HS256 and the public key as the HMAC secret,
 *    or unsigned, or without `kid`, or naming an unknown `kid`, gets 401 at the gateway and straight
 *    at every service.
 *  - A rotation signs nobody out: the old key keeps verifying until its tokens expire, new sign-ins
 *    get the new key, the JWKS lists both, and a service that knew only the old key learns the new
 *    one on the first token naming it.
 */
import { createPublicKey } from 'node:crypto';
import type { ApiService } from '@crm/contracts';
import type { PublicJwk } from '@crm/server-kit';
import { eventually, hostileTokens, mintToken, newSigningKey } from '@crm/testing';
import { signInStaff, type Actor } from './support/actors';
import { call } from './support/http';
import { Summary } from './support/summary';
import { SERVICE_NAMES, startSystemStack, type SystemStack } from './support/system-stack';

jest.setTimeout(60_000);

/** A protected call of each service an ADMIN may make (straight at the service: no /api/v1). */
const PROBES: Record<ApiService, string> = {
  auth: '/auth/currentUser',
  appointments: '/dates/agenda?date=2030-01-07',
  records: '/records',
  rooms: '/room-calendar/mine',
  config: `/config/view?view=${encodeURIComponent('doctor/appointments/:id')}`,
  audit: '/audit',
  reporting: '/reports/summary?from=2030-01-01&to=2030-01-31',
  payments: '/payments/invoices/verify',
};

let stack: SystemStack;
let admin: Actor;
const summary = new Summary('one signer (asymmetric session tokens, JWKS, rotation)');

beforeAll(async () => {
  stack = await startSystemStack({ notifications: false });
  admin = await signInStaff(stack, 'admin');
}, 120_000);
afterAll(async () => {
  summary.print();
  await stack?.stop();
});

const jwks = async () => {
  const response = await call(stack.gatewayUrl, 'GET', '/auth/.well-known/jwks.json');
  expect(response.status).toBe(200);
  return { keys: response.body.keys as PublicJwk[], cacheControl: response.headers.get('cache-control') };
};
const kidOf = (token: string) =>
  (JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as { kid?: string }).kid;

/** The status of the token at the gateway, then straight at every service. */
async function everywhere(token: string): Promise<Record<string, number>> {
  const statuses: Record<string, number> = {
    gateway: (await call(stack.gatewayUrl, 'GET', '/audit', { token })).status,
  };
  for (const name of SERVICE_NAMES) {
    const response = await fetch(`${stack.services[name].url}${PROBES[name]}`, {
      headers: { authorization: `Bearer ${token}` },
    });
    statuses[name] = response.status;
  }
  return statuses;
}
const all = (status: number) =>
  Object.fromEntries(['gateway', ...SERVICE_NAMES].map((name) => [name, status]));
const accepted = (statuses: Record<string, number>) =>
  Object.entries(statuses).filter(([, status]) => status === 401 || status === 503 || status >= 500);

describe('the published keys', () => {
  it('are public keys only, with kid, alg RS256 and use sig, cacheable for a minute', async () => {
    const check = summary.case();
    const { keys, cacheControl } = await jwks();
    expect(keys.length).toBeGreaterThanOrEqual(1);
    for (const key of keys) {
      expect(Object.keys(key).sort()).toEqual(['alg', 'e', 'kid', 'kty', 'n', 'use']);
      expect(key).toMatchObject({ kty: 'RSA', alg: 'RS256', use: 'sig' });
    }
    expect(cacheControl).toBe('public, max-age=60');
    expect(keys.map((key) => key.kid)).toContain(kidOf(admin.token));
    summary.set('keys published', keys.length);
    check.pass();
  });
});

describe('a token not signed by the auth service', () => {
  it('gets 401 at the gateway and at every service, whatever key or algorithm it tries', async () => {
    const check = summary.case();
    const claims = { id: admin.id, rol: 'ADMIN' as const };
    const current = (await jwks()).keys.find((key) => key.kid === kidOf(admin.token))!;
    const publicKey = createPublicKey({ key: { kty: 'RSA', n: current.n, e: current.e }, format: 'jwk' });
    const forged: Record<string, string> = {
      'another RSA key': hostileTokens.otherKey(claims),
      'another RSA key under the current kid': mintToken(claims, 3600, {
        ...newSigningKey(),
        kid: current.kid,
      }),
      'another Ed25519 key (EdDSA)': hostileTokens.eddsa(claims, current.kid),
      'HS256, the public key (PEM) as secret': hostileTokens.hs256WithPublicKey(claims, 'pem', publicKey),
      'HS256, the public key (PKCS1 PEM) as secret': hostileTokens.hs256WithPublicKey(
        claims,
        'pkcs1',
        publicKey,
      ),
      'HS256, the public key (JWK) as secret': hostileTokens.hs256WithPublicKey(claims, 'jwk', publicKey),
      'alg none': hostileTokens.algNone(claims),
      'no kid': hostileTokens.withoutKid(claims),
      'an unknown kid': hostileTokens.unknownKid(claims),
    };
    for (const [label, token] of Object.entries(forged)) {
      expect({ label, statuses: await everywhere(token) }).toEqual({ label, statuses: all(401) });
    }
    summary.set('forged tokens refused everywhere', Object.keys(forged).length);
    // The real session, for contrast: accepted everywhere.
    expect(accepted(await everywhere(admin.token))).toEqual([]);
    check.pass();
  });
});

describe('a rotation of the signing key', () => {
  it('signs nobody out; new sessions get the new key, which every service learns on first sight', async () => {
    const check = summary.case();
    const oldKid = kidOf(admin.token)!;
    // Every service has verified a token of the old key (and knows no other key).
    expect(accepted(await everywhere(admin.token))).toEqual([]);
    const shortLived = mintToken({ id: admin.id, rol: 'ADMIN' }, 4);
    expect(kidOf(shortLived)).toBe(oldKid);
    expect(accepted(await everywhere(shortLived))).toEqual([]);

    const rotated = await stack.api.post('/auth/signing-keys/rotate', {}, admin.token);
    expect(rotated.status).toBe(200);
    const newKid = rotated.body.kid as string;
    expect(newKid).not.toBe(oldKid);
    expect((await jwks()).keys.map((key) => key.kid)).toEqual([newKid, oldKid]);
    // Recorded in the access trail, with who did it.
    const entry = await eventually(async () => {
      const trail = await stack.api.get('/audit?action=auth.signing-key.rotate', admin.token);
      return (trail.body.entries as { resourceId: string; actorId: string }[] | undefined)?.find(
        (found) => found.resourceId === newKid,
      );
    }, 15_000);
    expect(entry.actorId).toBe(admin.id);

    // The open session goes on, at the gateway and at every service.
    expect(accepted(await everywhere(admin.token))).toEqual([]);
    // A new sign-in is signed with the new key, and every deployable accepts it at once.
    const fresh = await signInStaff(stack, 'admin');
    expect(kidOf(fresh.token)).toBe(newKid);
    expect(accepted(await everywhere(fresh.token))).toEqual([]);
    summary.set('old and new key accepted after rotation', 'yes');

    // An old-key token ends when it expires, not before.
    await new Promise((resolve) => setTimeout(resolve, 4500));
    const expired = await call(stack.gatewayUrl, 'GET', '/audit', { token: shortLived });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ message: 'TokenExpiredError' });
    expect(accepted(await everywhere(admin.token))).toEqual([]);
    check.pass();
  });

  it('is for ADMIN only', async () => {
    const check = summary.case();
    const doctor = await signInStaff(stack, 'doctor');
    expect((await stack.api.post('/auth/signing-keys/rotate', {}, doctor.token)).status).toBe(403);
    expect((await stack.api.post('/auth/signing-keys/rotate', {})).status).toBe(401);
    check.pass();
  });
});
