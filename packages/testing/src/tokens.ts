import { TokenService } from '@crm/server-kit';
import type { Role } from '@crm/contracts';
import jwt from 'jsonwebtoken';

/** The secret tests use unless the environment sets one; long enough for the config schema. */
export const TEST_JWT_SECRET = process.env.JWT_SECRET ?? 'dev-only-test-secret-0123456789abcdef';

export function mintToken(
  user: { id: string; rol: Role },
  ttlSeconds = 3600,
  secret = TEST_JWT_SECRET,
): string {
  return new TokenService(secret, ttlSeconds).sign(user).token;
}

/** Tokens a well-behaved server must refuse, for security tests. */
export const hostileTokens = {
  expired(user: { id: string; rol: Role }, secret = TEST_JWT_SECRET): string {
    const now = Math.floor(Date.now() / 1000);
    return jwt.sign(
      { sub: user.id, rol: user.rol, jti: 'expired', iat: now - 7200, exp: now - 3600 },
      secret,
      {
        algorithm: 'HS256',
      },
    );
  },
  tampered(user: { id: string; rol: Role }): string {
    const [header, , signature] = mintToken(user).split('.');
    const payload = Buffer.from(
      JSON.stringify({ sub: user.id, rol: 'ADMIN', jti: 'x', iat: 1, exp: 4102444800 }),
    ).toString('base64url');
    return `${header}.${payload}.${signature}`;
  },
  algNone(user: { id: string; rol: Role }): string {
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const payload = Buffer.from(
      JSON.stringify({
        sub: user.id,
        rol: user.rol,
        jti: 'none',
        iat: Math.floor(Date.now() / 1000),
        exp: 4102444800,
      }),
    ).toString('base64url');
    return `${header}.${payload}.`;
  },
  withoutExpiry(user: { id: string; rol: Role }, secret = TEST_JWT_SECRET): string {
    return jwt.sign(
      { sub: user.id, rol: user.rol, jti: 'noexp', iat: Math.floor(Date.now() / 1000) },
      secret,
      {
        algorithm: 'HS256',
      },
    );
  },
};
