import type { Redis } from 'ioredis';
import { sessionKeys } from '@crm/contracts';
import type { AuthenticatedUser, Logger } from '@crm/server-kit';
import { isRedisReady } from './redis-client';

/** `true` valid, `false` signed out / issued before a password reset. */
export type SessionCheck = (user: AuthenticatedUser) => Promise<boolean>;

/**
 * Asks Redis whether the auth service ended this session: the token id was revoked (sign-out) or the
 * token was issued before the user's "valid after" instant (password reset). One MGET round trip.
 *
 * Trade-off, deliberately: when Redis is unavailable (not connected, error, or slower than the
 * command timeout) the check is SKIPPED (fail open) and logged once per outage. The token's
 * signature and expiry were still verified, and every service behind the gateway refuses ended
 * sessions by itself (its own copy of `auth.session.ended.v1`, server-kit's ended-sessions.ts), so
 * an outage costs nothing but this fast path; failing closed would instead sign every user out of
 * the whole product whenever Redis blinks. After an outage the auth service writes the facts it
 * could not write to Redis again (`SESSION_REDIS_SYNC_MS`).
 */
export function createSessionCheck(redis: Redis, logger: Logger): SessionCheck {
  let skipping = false;
  const skip = (reason: string): true => {
    if (!skipping)
      logger.warn({ reason }, 'session revocation check skipped while redis is unavailable (fail open)');
    skipping = true;
    return true;
  };

  return async (user) => {
    if (!isRedisReady(redis)) return skip('not connected');
    let revoked: string | null;
    let validAfter: string | null;
    try {
      [revoked, validAfter] = await redis.mget(
        sessionKeys.revokedToken(user.tokenId),
        sessionKeys.validAfter(user.id),
      );
    } catch (error) {
      return skip((error as Error).message);
    }
    if (skipping) logger.info('session revocation check resumed');
    skipping = false;
    if (revoked !== null) return false;
    if (validAfter !== null) {
      const instant = Number(validAfter);
      if (Number.isFinite(instant) && user.issuedAt < instant) return false;
    }
    return true;
  };
}
