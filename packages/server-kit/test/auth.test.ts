import { hostileTokens, mintToken, TEST_JWT_SECRET } from '@crm/testing';
import { TokenError, TokenService } from '../src/auth';

const tokens = new TokenService(TEST_JWT_SECRET, 3600);
const patient = { id: 'user-1', rol: 'PACIENT' as const };

function reasonOf(token: string): string | undefined {
  try {
    tokens.verify(token);
    return undefined;
  } catch (error) {
    return error instanceof TokenError ? error.reason : 'unexpected';
  }
}

describe('TokenService', () => {
  it('accepts a token it signed and returns the caller', () => {
    const user = tokens.verify(mintToken(patient));
    expect(user).toMatchObject({ id: 'user-1', rol: 'PACIENT' });
    expect(user.expiresAt).toBeGreaterThan(Date.now() / 1000);
  });

  it('reports an expired token as expired', () => {
    expect(reasonOf(hostileTokens.expired(patient))).toBe('expired');
  });

  it.each([
    ['a tampered payload', hostileTokens.tampered(patient)],
    ['alg none', hostileTokens.algNone(patient)],
    ['no exp claim', hostileTokens.withoutExpiry(patient)],
    ['another secret', mintToken(patient, 3600, 'another-secret-another-secret-another')],
    ['garbage', 'not.a.token'],
  ])('rejects %s as invalid', (_label, token) => {
    expect(reasonOf(token)).toBe('invalid');
  });

  it('rejects a token with an unknown role', () => {
    const forged = new TokenService(TEST_JWT_SECRET, 60).sign({ id: 'x', rol: 'ROOT' as never }).token;
    expect(reasonOf(forged)).toBe('invalid');
  });

  describe('remembering verified tokens', () => {
    afterEach(() => jest.useRealTimers());

    it('answers a repeated token with the same caller, and refuses it once it has expired', () => {
      jest.useFakeTimers({ now: new Date('2026-11-27T10:00:00Z') });
      const shortLived = new TokenService(TEST_JWT_SECRET, 60);
      const { token } = shortLived.sign(patient);
      const first = shortLived.verify(token);
      expect(shortLived.verify(token)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);

      jest.setSystemTime(new Date('2026-11-27T10:01:00Z'));
      expect(() => shortLived.verify(token)).toThrow(expect.objectContaining({ reason: 'expired' }));
      expect(() => shortLived.verify(token)).toThrow(expect.objectContaining({ reason: 'expired' }));
    });

    it('does not let a tampered copy of a remembered token through', () => {
      const service = new TokenService(TEST_JWT_SECRET, 3600);
      const { token } = service.sign(patient);
      service.verify(token);
      const [header, , signature] = token.split('.');
      const payload = Buffer.from(
        JSON.stringify({ sub: 'someone-else', rol: 'ADMIN', jti: 'j', iat: 1, exp: 9e9 }),
      );
      expect(() => service.verify(`${header}.${payload.toString('base64url')}.${signature}`)).toThrow(
        expect.objectContaining({ reason: 'invalid' }),
      );
    });
  });
});
