import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostileTokens, mintToken, newSigningKey, TEST_SIGNING_KEY, testTokens } from '@crm/testing';
import { TokenError, TokenService } from '../src/auth';
import { privateKeyPem, publicJwkOf, signingKeyFromPem } from '../src/signing-keys';
import { RemoteKeys, StaticKeys, throttledRefresh } from '../src/verification-keys';

const tokens = testTokens();
const patient = { id: 'user-1', rol: 'PACIENT' as const };

function reasonOf(token: string, service: TokenService = tokens): string | undefined {
  try {
    service.verify(token);
    return undefined;
  } catch (error) {
    return error instanceof TokenError ? error.reason : 'unexpected';
  }
}

describe('TokenService', () => {
  it('accepts a token signed with a trusted key and returns the caller', () => {
    const user = tokens.verify(mintToken(patient));
    expect(user).toMatchObject({ id: 'user-1', rol: 'PACIENT' });
    expect(user.expiresAt).toBeGreaterThan(Date.now() / 1000);
  });

  it('reports an expired token as expired', () => {
    expect(reasonOf(hostileTokens.expired(patient))).toBe('expired');
  });

  it.each([
    ['a tampered payload', () => hostileTokens.tampered(patient)],
    ['alg none', () => hostileTokens.algNone(patient)],
    ['no exp claim', () => hostileTokens.withoutExpiry(patient)],
    ['another key under the trusted kid', () => hostileTokens.otherKeyTrustedKid(patient)],
    ['HS256 with the public key (PEM) as secret', () => hostileTokens.hs256WithPublicKey(patient, 'pem')],
    ['HS256 with the public key (PKCS1) as secret', () => hostileTokens.hs256WithPublicKey(patient, 'pkcs1')],
    ['HS256 with the public key (JWK) as secret', () => hostileTokens.hs256WithPublicKey(patient, 'jwk')],
    ['no kid', () => hostileTokens.withoutKid(patient)],
    ['garbage', () => 'not.a.token'],
  ])('rejects %s as invalid', (_label, token) => {
    expect(reasonOf(token())).toBe('invalid');
  });

  it('reports a key it does not know as unknown, and refuses it once the keys were asked again', async () => {
    const token = hostileTokens.otherKey(patient);
    expect(reasonOf(token)).toBe('unknown-key');
    await expect(tokens.verifyLearning(token)).rejects.toMatchObject({ reason: 'invalid' });
  });

  it('rejects a token with an unknown role', () => {
    expect(reasonOf(mintToken({ id: 'x', rol: 'ROOT' as never }))).toBe('invalid');
  });

  describe('remembering verified tokens', () => {
    afterEach(() => jest.useRealTimers());

    it('answers a repeated token with the same caller, and refuses it once it has expired', () => {
      jest.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
      const token = mintToken(patient, 60);
      const first = tokens.verify(token);
      expect(tokens.verify(token)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);

      jest.setSystemTime(new Date('2026-11-27T10:01:00Z'));
      expect(() => tokens.verify(token)).toThrow(expect.objectContaining({ reason: 'expired' }));
      expect(() => tokens.verify(token)).toThrow(expect.objectContaining({ reason: 'expired' }));
    });

    it('does not let a tampered copy of a remembered token through', () => {
      const token = mintToken(patient);
      tokens.verify(token);
      const [header, , signature] = token.split('.');
      const payload = Buffer.from(
        JSON.stringify({ sub: 'someone-else', rol: 'ADMIN', jti: 'j', iat: 1, exp: 9e9 }),
      );
      expect(() => tokens.verify(`${header}.${payload.toString('base64url')}.${signature}`)).toThrow(
        expect.objectContaining({ reason: 'invalid' }),
      );
    });
  });
});

describe('public keys', () => {
  it('takes from a JWKS only the RSA keys whose kid is their own thumbprint', () => {
    const good = publicJwkOf(TEST_SIGNING_KEY.publicKey);
    const other = publicJwkOf(newSigningKey().publicKey);
    const keys = StaticKeys.fromJwks({
      keys: [good, { ...other, kid: good.kid }, { kty: 'oct', k: 'c2VjcmV0', kid: 'x' }],
    });
    expect(keys.get(good.kid)).toBeDefined();
    expect(keys.get(other.kid)).toBeUndefined();
  });

  it('reads an operator’s PEM key also with its line breaks written \\n, and refuses a short one', () => {
    const pem = privateKeyPem(TEST_SIGNING_KEY);
    expect(signingKeyFromPem(pem.replaceAll('\n', '\\n')).kid).toBe(TEST_SIGNING_KEY.kid);
    const short = generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey;
    expect(() => signingKeyFromPem(short.export({ format: 'pem', type: 'pkcs8' }).toString())).toThrow(
      /at least 2048 bits/,
    );
  });

  it('asks the JWKS again on an unknown kid, once per interval however many tokens ask', async () => {
    const rotated = newSigningKey();
    let published = [publicJwkOf(TEST_SIGNING_KEY.publicKey)];
    let lookUps = 0;
    const server = createServer((_req, res) => {
      lookUps++;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: published }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const remote = new TokenService(RemoteKeys.forAuthService(url, { minIntervalMs: 300 }));
      expect(await remote.keys.refresh()).toBe(true);
      expect(remote.verify(mintToken(patient)).id).toBe('user-1');

      // Made-up key ids: one look-up serves the whole burst.
      const before = lookUps;
      const garbage = Array.from({ length: 20 }, () => hostileTokens.unknownKid(patient));
      const answers = await Promise.allSettled(garbage.map((token) => remote.verifyLearning(token)));
      expect(answers.map((answer) => answer.status === 'rejected' && answer.reason.reason)).toEqual(
        garbage.map(() => 'invalid'),
      );
      expect(lookUps - before).toBeLessThanOrEqual(2);

      // A key published meanwhile is learnt on its first token.
      published = [...published, publicJwkOf(rotated.publicKey)];
      const user = await remote.verifyLearning(mintToken(patient, 60, rotated));
      expect(user.id).toBe('user-1');
    } finally {
      server.close();
    }
    // The auth service gone: an unknown key is "unavailable" (503), never "invalid" (401).
    const gone = new TokenService(RemoteKeys.forAuthService(url, { minIntervalMs: 10, timeoutMs: 500 }));
    await expect(gone.verifyLearning(mintToken(patient))).rejects.toMatchObject({ reason: 'unavailable' });
  });

  it('runs a throttled refresh at most once per interval and shares its answer', async () => {
    let runs = 0;
    const refresh = throttledRefresh(async () => {
      runs++;
      return true;
    }, 200);
    await Promise.all([refresh(), refresh(), refresh()]);
    const started = Date.now();
    await Promise.all([refresh(), refresh()]);
    expect(runs).toBe(2);
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
  });
});
