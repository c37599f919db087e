import type { Redis } from 'ioredis';
import { serviceUnavailable } from '@crm/server-kit';
import type { FactorAttempt, FactorAttempts, FactorGuardPolicy } from '../domain/second-factor-guard';

/**
 * One Lua script decides and counts, so parallel attempts are serialised by Redis itself (the delay
 * rule of `FactorAttempts.reserve`). Returns {allowed, failures or locked, wait in ms}.
 */
const RESERVE = `
local count = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
local last = tonumber(redis.call('HGET', KEYS[1], 'last') or '0')
local now = tonumber(ARGV[1])
if count >= tonumber(ARGV[2]) then return {0, 1, redis.call('PTTL', KEYS[1])} end
local delay = 0
if count >= 2 then delay = math.min(2 ^ (count - 1), 300) * 1000 end
if now < last + delay then return {0, 0, last + delay - now} end
redis.call('HSET', KEYS[1], 'count', count + 1, 'last', now)
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, count + 1, 0}
`;

const key = (userId: string) => `auth:mfa-failures:${userId}`;

/** The second factor's per-account counter, shared by every replica. */
export class RedisFactorAttempts implements FactorAttempts {
  constructor(
    private readonly redis: Redis,
    private readonly policy: FactorGuardPolicy,
  ) {}

  async reserve(userId: string, now: Date): Promise<FactorAttempt> {
    let answer: [number, number, number];
    try {
      answer = (await this.redis.eval(
        RESERVE,
        1,
        key(userId),
        now.getTime(),
        this.policy.maxFailures,
        this.policy.lockMs,
      )) as [number, number, number];
    } catch {
      // Without the counter no code is checked: an outage must not turn the limit off.
      throw serviceUnavailable();
    }
    const [allowed, value, waitMs] = answer;
    if (allowed === 1) return { allowed: true, failures: value };
    return { allowed: false, locked: value === 1, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
  }

  async clear(userId: string): Promise<void> {
    await this.redis.del(key(userId));
  }
}
