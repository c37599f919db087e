import type { Redis } from 'ioredis';
import { serviceUnavailable } from '@crm/server-kit';
import type { OnboardingCodeCheck, OnboardingCodes } from '../domain/kiosk.service';

/**
 * Compares and counts in one step, so parallel guesses are serialised by Redis itself: the stored
 * hash matches (1), or a wrong try is counted and the code deleted at the last allowed one (2), or
 * there is no live code (0).
 */
const CHECK = `
local stored = redis.call('HGET', KEYS[1], 'hash')
if not stored then return 0 end
if stored == ARGV[1] then return 1 end
local tries = redis.call('HINCRBY', KEYS[1], 'tries', 1)
if tries >= tonumber(ARGV[2]) then redis.call('DEL', KEYS[1]) end
return 2
`;

const key = (userId: string) => `auth:onboarding-code:${userId}`;

/** Attempts of one Redis step: a reconnection or a command timeout on a busy host is worth a retry. */
const ATTEMPTS = 3;

/**
 * Runs a Redis step, again after a short pause when it fails; 503 when it never succeeds. A check
 * retried after a lost reply may count one wrong try twice: the safe side.
 */
async function withRetries<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch {
      if (attempt >= ATTEMPTS) throw serviceUnavailable();
      await new Promise((resolve) => setTimeout(resolve, 150 * attempt));
    }
  }
}

/**
 * The kiosk's one-time codes, one per account, in Redis (shared by every replica): only a keyed hash
 * of the code, its wrong tries, and an expiry set to the code's lifetime. A new code replaces the
 * account's previous one. While Redis is unreachable no code is issued or checked (503, after a few
 * quick retries): the tries must be counted.
 */
export class RedisOnboardingCodes implements OnboardingCodes {
  constructor(private readonly redis: Redis) {}

  async store(userId: string, hash: string, ttlMs: number): Promise<void> {
    await withRetries(async () => {
      const results = await this.redis
        .multi()
        .del(key(userId))
        .hset(key(userId), 'hash', hash, 'tries', 0)
        .pexpire(key(userId), Math.max(1, Math.round(ttlMs)))
        .exec();
      if (!results || results.some(([error]) => error)) throw new Error('code not stored');
    });
  }

  async check(userId: string, hash: string, maxTries: number): Promise<OnboardingCodeCheck> {
    const answer = (await withRetries(() =>
      this.redis.eval(CHECK, 1, key(userId), hash, maxTries),
    )) as number;
    return answer === 1 ? 'match' : answer === 2 ? 'wrong' : 'none';
  }
}
