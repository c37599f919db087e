import { createSecretKey, randomUUID, type KeyObject } from 'node:crypto';
import type { RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { ROLES, type Role } from '@crm/contracts';
import { forbidden, unauthorized } from './errors';

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

const ALGORITHM = 'HS256' as const;

export class TokenError extends Error {
  constructor(readonly reason: 'missing' | 'expired' | 'invalid') {
    super(reason === 'expired' ? 'TokenExpiredError' : 'Unauthorized');
  }
}

/** How many verified tokens a TokenService remembers (a few MB at most). */
const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signs and verifies session tokens with one pinned algorithm. The secret becomes a KeyObject once:
 * jsonwebtoken would otherwise try to parse a string secret as a PEM key on every call (~50x slower).
 * A token whose signature was verified is remembered by its exact text until it expires, so the
 * next call with the same token skips the HMAC and the JSON parsing (most of the gateway's JWT cost);
 * its expiry is still checked on every call. The oldest entries go first when the cache is full.
 */
export class TokenService {
  private readonly key: KeyObject;
  private readonly verified = new Map<string, AuthenticatedUser>();

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  sign(user: { id: string; rol: Role }, ttlSeconds = this.ttlSeconds): { token: string; claims: AuthClaims } {
    const now = Math.floor(Date.now() / 1000);
    const claims: AuthClaims = {
      sub: user.id,
      rol: user.rol,
      jti: randomUUID(),
      iat: now,
      exp: now + ttlSeconds,
    };
    return { token: jwt.sign(claims, this.key, { algorithm: ALGORITHM }), claims };
  }

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

  private verifySignature(token: string): AuthenticatedUser {
    let payload: string | jwt.JwtPayload;
    try {
      payload = jwt.verify(token, this.key, { algorithms: [ALGORITHM] });
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

export function bearerToken(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const match = /^Bearer ([A-Za-z0-9\-_.]+)$/.exec(header.trim());
  return match?.[1];
}

/** Optional extra check, e.g. "was this token signed out or issued before a password reset". */
export type SessionCheck = (user: AuthenticatedUser) => Promise<boolean> | boolean;

/** Verifies the bearer token and sets `req.user`; 401 (`TokenExpiredError` when expired) otherwise. */
export function requireAuth(tokens: TokenService, isSessionValid?: SessionCheck): RequestHandler {
  return async (req, _res, next) => {
    const token = bearerToken(req.headers.authorization);
    if (!token) return next(unauthorized());
    try {
      const user = tokens.verify(token);
      if (isSessionValid && !(await isSessionValid(user))) return next(unauthorized());
      req.user = user;
      next();
    } catch (error) {
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
