import type { Redis } from 'ioredis';
import { sessionKeys } from '@crm/contracts';
import type { AuthenticatedUser, Logger } from '@crm/server-kit';
import { isRedisReady } from './redis-client';

/** `true` valid, `false` signed out / issued before a password reset. */
export type SessionCheck = (user: AuthenticatedUser) => Promise<boolean>;

export interface SessionChecker {
  check: SessionCheck;
  /** Whether answers are being remembered now (the announcement channel is listened to). */
  remembering(): boolean;
  close(): Promise<void>;
}

/** How many sessions' answers are remembered at most (the oldest go first). */
const REMEMBERED_SESSIONS = 10_000;

/**
 * Asks Redis whether the auth service ended this session: the token id was revoked (sign-out) or the
 * token was issued before the user's "valid after" instant (password reset). One MGET round trip.
 *
 * A "still valid" answer is remembered for `rememberMs` (`SESSION_CHECK_CACHE_MS`), so that a busy
 * session does not cost a Redis round trip per request, but only while this gateway listens to the
 * auth service's announcements (`sessionKeys.endedChannel`): each one makes it forget every answer at
 * once, and so does losing that connection (nothing is remembered until it is back). A lookup that
 * was under way when an announcement arrived is not remembered either, since Redis may have answered
 * it just before the key was written. `rememberMs` 0 asks Redis on every request.
 *
 * Trade-off, deliberately: when Redis is unavailable (not connected, error, or slower than the
 * command timeout) the check is SKIPPED (fail open) and logged once per outage. The token's
 * signature and expiry were still verified, and every service behind the gateway refuses ended
 * sessions by itself (its own copy of `auth.session.ended.v1`, server-kit's ended-sessions.ts), so
 * an outage costs nothing but this fast path; failing closed would instead sign every user out of
 * the whole product whenever Redis blinks. After an outage the auth service writes (and announces)
 * the facts it could not write to Redis again (`SESSION_REDIS_SYNC_MS`).
 */
export function createSessionChecker(redis: Redis, logger: Logger, rememberMs: number): SessionChecker {
  let skipping = false;
  const skip = (reason: string): true => {
    if (!skipping)
      logger.warn({ reason }, 'session revocation check skipped while redis is unavailable (fail open)');
    skipping = true;
    return true;
  };

  /** Token id → until when its "valid" answer may be reused. */
  const remembered = new Map<string, number>();
  /** Counts the moments answers were forgotten: a lookup started before one is not remembered. */
  let forgottenAt = 0;
  let listening = false;
  const forget = () => {
    remembered.clear();
    forgottenAt++;
  };
  const announcements = rememberMs > 0 ? listenToAnnouncements(redis, logger) : undefined;
  announcements?.on('message', forget);
  announcements?.on('close', () => {
    listening = false;
    forget();
  });
  announcements?.on('ready', () => {
    announcements.subscribe(sessionKeys.endedChannel).then(
      () => {
        forget();
        listening = true;
      },
      (error: Error) => logger.warn({ err: error.message }, 'cannot listen to ended-session announcements'),
    );
  });

  const remember = (tokenId: string, until: number) => {
    if (remembered.size >= REMEMBERED_SESSIONS) remembered.delete(remembered.keys().next().value!);
    remembered.set(tokenId, until);
  };

  const check: SessionCheck = async (user) => {
    if (!isRedisReady(redis)) return skip('not connected');
    if (listening) {
      const until = remembered.get(user.tokenId);
      if (until !== undefined && until > Date.now()) return true;
    }
    const lookupStartedAt = forgottenAt;
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
    if (listening && lookupStartedAt === forgottenAt) remember(user.tokenId, Date.now() + rememberMs);
    return true;
  };

  return {
    check,
    remembering: () => listening,
    close: async () => {
      listening = false;
      forget();
      await announcements?.quit().catch(() => announcements.disconnect());
    },
  };
}

/** A connection of its own (a subscribed connection can do nothing else), subscribed on every (re)connect. */
function listenToAnnouncements(redis: Redis, logger: Logger): Redis {
  const subscriber = redis.duplicate({
    connectionName: 'gateway-sessions',
    autoResubscribe: false,
    enableAutoPipelining: false,
  });
  // The command connection already logs outages; this one only stops answers being remembered.
  subscriber.on('error', (error: Error) => logger.debug({ err: error.message }, 'announcements connection'));
  return subscriber;
}
