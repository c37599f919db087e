import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { ROLES, type Role } from '@crm/contracts';
import { forbidden, serviceUnavailable, unauthorized } from './errors';
import { TOKEN_ALGORITHM, type SigningKey } from './signing-keys';
import type { VerificationKeys } from './verification-keys';

/** The identity a verified token carries. `sub` is the user id. */
export interface AuthClaims {
  sub: string;
  rol: Role;
  jti: string;
  iat: number;
  exp: number;
}

export interface AuthenticatedUser {
  readonly id: string;
  readonly rol: Role;
  readonly tokenId: string;
  readonly issuedAt: number;
  readonly expiresAt: number;
}

declare module 'express-serve-static-core' {
  interface Request {
    user?: AuthenticatedUser;
  }
}

/**
 * Why a token was refused: `unknown-key` names a key not (yet) known here, `unavailable` a key that
 * could not be looked up because the auth service did not answer (a 503, never a 401 that would
 * sign the person out).
 */
export class TokenError extends Error {
  constructor(readonly reason: 'missing' | 'expired' | 'invalid' | 'unknown-key' | 'unavailable') {
    super(reason === 'expired' ? 'TokenExpiredError' : 'Unauthorized');
  }
}

/** How many verified tokens a TokenService remembers (a few MB at most). */
const VERIFIED_TOKENS_KEPT = 10_000;

/** Our key ids are RFC 7638 thumbprints; anything else is refused without asking the auth service. */
const KEY_ID = /^[A-Za-z0-9_-]{43}$/;

function keyIdOfHeader(token: string): string {
  const dot = token.indexOf('.');
  let header: unknown;
  try {
    header = JSON.parse(Buffer.from(token.slice(0, dot), 'base64url').toString('utf8'));
  } catch {
    throw new TokenError('invalid');
  }
  const { alg, kid, crit } = (header ?? {}) as Record<string, unknown>;
  // The algorithm is pinned before any key is chosen: `none`, HS256 with the public key as the
  // HMAC secret and every other algorithm are refused here, whatever the rest of the token says.
  if (alg !== TOKEN_ALGORITHM || crit !== undefined || typeof kid !== 'string' || !KEY_ID.test(kid))
    throw new TokenError('invalid');
  return kid;
}

/**
 * Verifies session tokens with public keys only (RS256 pinned, `kid` required, `exp` required). A
 * token whose signature was verified is remembered by its exact text until it expires, so the next
 * call with the same token skips the RSA check and the JSON parsing (most of the gateway's JWT
 * cost); its expiry is still checked on every call. The oldest entries go first when the cache is full.
 */
export class TokenService {
  private readonly verified = new Map<string, AuthenticatedUser>();

  constructor(readonly keys: VerificationKeys) {}

  /** Synchronous: throws `TokenError('unknown-key')` when the token names a key not known yet. */
  verify(token: string): AuthenticatedUser {
    const known = this.verified.get(token);
    if (known) {
      if (Math.floor(Date.now() / 1000) < known.expiresAt) return known;
      this.verified.delete(token);
      throw new TokenError('expired');
    }
    const user = this.verifySignature(token);
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, user);
    return user;
  }

  /**
   * Like `verify`, and a key not known yet is looked up once (the key source rate-limits lookups):
   * a key the auth service has just started signing with is learnt on its first token.
   */
  async verifyLearning(token: string): Promise<AuthenticatedUser> {
    try {
      return this.verify(token);
    } catch (error) {
      if (!(error instanceof TokenError) || error.reason !== 'unknown-key') throw error;
    }
    const reached = await this.keys.refresh();
    try {
      return this.verify(token);
    } catch (error) {
      if (error instanceof TokenError && error.reason === 'unknown-key')
        throw new TokenError(reached ? 'invalid' : 'unavailable');
      throw error;
    }
  }

  private verifySignature(token: string): AuthenticatedUser {
    const key = this.keys.get(keyIdOfHeader(token));
    if (!key) throw new TokenError('unknown-key');
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, key, { algorithms: [TOKEN_ALGORITHM] });
    } catch (error) {
      throw new TokenError(error instanceof jwt.TokenExpiredError ? 'expired' : 'invalid');
    }
    if (
      typeof payload !== 'object' ||
      typeof payload.exp !== 'number' ||
      typeof payload.sub !== 'string' ||
      typeof payload.jti !== 'string' ||
      typeof payload.iat !== 'number' ||
      !ROLES.includes(payload.rol)
    ) {
      throw new TokenError('invalid');
    }
    // Frozen: the same object is handed to every request that carries this token.
    return Object.freeze({
      id: payload.sub,
      rol: payload.rol,
      tokenId: payload.jti,
      issuedAt: payload.iat,
      expiresAt: payload.exp,
    });
  }
}

/**
 * Signs session tokens with the current key (the auth service's, or a test key). A token may not
 * outlive `maxTtlSeconds`: that is how long a retired key stays published for verification.
 */
export class TokenSigner {
  constructor(
    private readonly currentKey: () => SigningKey,
    private readonly ttlSeconds: number,
    private readonly maxTtlSeconds = ttlSeconds,
  ) {}

  sign(user: { id: string; rol: Role }, ttlSeconds = this.ttlSeconds): { token: string; claims: AuthClaims } {
    if (ttlSeconds > this.maxTtlSeconds)
      throw new Error(`a session token may last ${this.maxTtlSeconds} s at most (asked ${ttlSeconds} s)`);
    const now = Math.floor(Date.now() / 1000);
    const claims: AuthClaims = {
      sub: user.id,
      rol: user.rol,
      jti: randomUUID(),
      iat: now,
      exp: now + ttlSeconds,
    };
    const key = this.currentKey();
    return {
      token: jwt.sign(claims, key.privateKey, { algorithm: TOKEN_ALGORITHM, keyid: key.kid }),
      claims,
    };
  }
}

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9\-_.]+)$/.exec(header.trim());
  return match?.[1];
}

/** Optional extra check, e.g. "was this token signed out or issued before a password reset". */
export type SessionCheck = (user: AuthenticatedUser) => Promise<boolean> | boolean;

/**
 * Verifies the bearer token and sets `req.user`; 401 (`TokenExpiredError` when expired) otherwise,
 * 503 when the token names a key that cannot be looked up now.
 */
export function requireAuth(tokens: TokenService, isSessionValid?: SessionCheck): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(unauthorized());
    try {
      const user = await tokens.verifyLearning(token);
      if (isSessionValid && !(await isSessionValid(user))) return next(unauthorized());
      req.user = user;
      next();
    } catch (error) {
      if (error instanceof TokenError && error.reason === 'unavailable') return next(serviceUnavailable());
      if (error instanceof TokenError) return next(unauthorized(error.message));
      next(error);
    }
  };
}

/** 403 unless the authenticated caller has one of the roles. Use after `requireAuth`. */
export function requireRole(...roles: Role[]): RequestHandler {
  return (req, _res, next) => {
    if (!req.user) return next(unauthorized());
    if (!roles.includes(req.user.rol)) return next(forbidden());
    next();
  };
}

/** The caller, for handlers placed behind `requireAuth`. */
export function callerOf(req: { user?: AuthenticatedUser }): AuthenticatedUser {
  if (!req.user) throw unauthorized();
  return req.user;
}
