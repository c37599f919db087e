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

/**
 * The kiosk's one-time codes, one per account, in Redis (shared by every replica): only a keyed hash
 * of the code, its wrong tries, and an expiry set to the code's lifetime. A new code replaces the
 * account's previous one. While Redis is unreachable no code is issued or checked (503): the tries
 * must be counted.
 */
export class RedisOnboardingCodes implements OnboardingCodes {
  constructor(private readonly redis: Redis) {}

  async store(userId: string, hash: string, ttlMs: number): Promise<void> {
    let results: Array<[Error | null, unknown]> | null;
    try {
      results = await this.redis
        .multi()
        .del(key(userId))
        .hset(key(userId), 'hash', hash, 'tries', 0)
        .pexpire(key(userId), Math.max(1, Math.round(ttlMs)))
        .exec();
    } catch {
      throw serviceUnavailable();
    }
    if (!results || results.some(([error]) => error)) throw serviceUnavailable();
  }

  async check(userId: string, hash: string, maxTries: number): Promise<OnboardingCodeCheck> {
    let answer: number;
    try {
      answer = (await this.redis.eval(CHECK, 1, key(userId), hash, maxTries)) as number;
    } catch {
      throw serviceUnavailable();
    }
    return answer === 1 ? 'match' : answer === 2 ? 'wrong' : 'none';
  }
}
