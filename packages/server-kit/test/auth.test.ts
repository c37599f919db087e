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
});
