import type { IncomingMessage } from 'node:http';
import type { Redis } from 'ioredis';
import { IDLE_SESSION_MESSAGE, type Role } from '@crm/contracts';
import type { AuthenticatedUser, Logger } from '@crm/server-kit';
import { isRedisReady } from './redis-client';

/** What the back office reports on every call: milliseconds since the person last touched it. */
export const IDLE_HEADER = 'x-idle-ms';
export const IDLE_MESSAGE = IDLE_SESSION_MESSAGE;

/** `true`: the session was used recently enough; `false`: it has been idle too long. */
export type IdleCheck = (user: AuthenticatedUser, req: IncomingMessage) => Promise<boolean>;

const activityKey = (tokenId: string) => `gw:activity:${tokenId}`;
/** Writes of the last activity are skipped when the stored one is this recent (one write per minute at most, per session). */
const WRITE_EVERY_MS = 60_000;
/** …or a tenth of the timeout, when that is shorter (tests use timeouts of seconds). */
const writeEveryMs = (timeoutMs: number) => Math.min(WRITE_EVERY_MS, timeoutMs / 10);

/**
 * Staff sessions end after `timeoutMs` without activity (docs/product/rights-and-access-trail.md#sessions).
 * Activity is what the person does, not what the page polls: the front ends send `X-Idle-Ms` (time since the
 * last key press, click or touch), so a list that refreshes itself keeps nobody signed in; a call without the
 * header (an API client) counts as activity. The last activity lives in Redis for the token's
 * lifetime, shared by every gateway replica. While Redis is unavailable the check is skipped, as
 * the revocation check is (session-check.ts).
 */
export function createIdleCheck(
  redis: Redis,
  logger: Logger,
  options: { timeoutMs: number; roles: readonly Role[]; now?: () => number },
): IdleCheck {
  const now = options.now ?? Date.now;
  return async (user, req) => {
    if (options.timeoutMs <= 0 || !options.roles.includes(user.rol) || !isRedisReady(redis)) return true;
    const at = now();
    const reported = Number(req.headers[IDLE_HEADER]);
    const idleFor = Number.isFinite(reported) ? Math.min(Math.max(reported, 0), options.timeoutMs * 2) : 0;
    const key = activityKey(user.tokenId);
    try {
      const stored = await redis.get(key);
      const last = stored === null ? undefined : Number(stored);
      if (last !== undefined && at - last > options.timeoutMs) return false;
      const activity = at - idleFor;
      if (last === undefined || activity - last >= writeEveryMs(options.timeoutMs)) {
        const lifetimeMs = Math.max(user.expiresAt * 1000 - at, options.timeoutMs);
        await redis.set(key, String(Math.max(activity, last ?? 0)), 'PX', lifetimeMs);
      }
      return true;
    } catch (error) {
      logger.warn({ reason: (error as Error).message }, 'idle check skipped while redis is unavailable');
      return true;
    }
  };
}
