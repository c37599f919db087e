import type { Redis } from 'ioredis';
import type { AttemptLimiter } from '../domain/attempt-limiter';

const UNDO_SCRIPT = `if redis.call('GET', KEYS[1]) then return redis.call('DECR', KEYS[1]) end return 0`;

/**
 * Fixed-window counters in Redis, shared by all replicas. While Redis is unreachable the counts live
 * in this process's memory instead, so limits still hold (per replica) rather than switching off.
 */
export class RedisAttemptLimiter implements AttemptLimiter {
  private readonly local = new Map<string, { count: number; resetAt: number }>();

  constructor(private readonly redis: Redis) {}

  async hit(key: string, limit: number, windowSeconds: number) {
    const redisKey = `auth:attempts:${key}`;
    try {
      const [[, count], [, ttl]] = (await this.redis.multi().incr(redisKey).ttl(redisKey).exec()) as [
        [null, number],
        [null, number],
      ];
      if (ttl < 0) await this.redis.expire(redisKey, windowSeconds);
      return { allowed: count <= limit, retryAfterSeconds: ttl > 0 ? ttl : windowSeconds };
    } catch {
      return this.hitLocally(redisKey, limit, windowSeconds);
    }
  }

  async reset(key: string): Promise<void> {
    const redisKey = `auth:attempts:${key}`;
    this.local.delete(redisKey);
    await this.redis.del(redisKey).catch(() => undefined);
  }

  async undo(key: string): Promise<void> {
    const redisKey = `auth:attempts:${key}`;
    const entry = this.local.get(redisKey);
    if (entry && entry.count > 0) entry.count -= 1;
    // Only when the key still exists (DECR of a missing key would create it at -1, forever).
    await this.redis.eval(UNDO_SCRIPT, 1, redisKey).catch(() => undefined);
  }

  private hitLocally(key: string, limit: number, windowSeconds: number) {
    const now = Date.now();
    let entry = this.local.get(key);
    if (!entry || entry.resetAt <= now) {
      entry = { count: 0, resetAt: now + windowSeconds * 1000 };
      this.local.set(key, entry);
      if (this.local.size > 10000) this.prune(now);
    }
    entry.count += 1;
    return { allowed: entry.count <= limit, retryAfterSeconds: Math.ceil((entry.resetAt - now) / 1000) };
  }

  private prune(now: number) {
    for (const [key, entry] of this.local) if (entry.resetAt <= now) this.local.delete(key);
  }
}
