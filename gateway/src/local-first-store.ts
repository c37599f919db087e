import type { Redis } from 'ioredis';
import type { ClientRateLimitInfo, IncrementResponse, Options, Store } from 'express-rate-limit';
import { isRedisReady } from './redis-client';

/** Reports Redis outages of the rate-limit stores (logged once per outage by rate-limit.ts). */
export interface OutageListener {
  fellBack(reason: string): void;
  recovered(): void;
}

/**
 * Adds this gateway's new hits to the shared count and answers the count and its time to live. The
 * first write of a window starts its expiry; the key is the one `rate-limit-redis` uses, so counts
 * carry over from gateways that count every hit in Redis.
 */
const SYNC_SCRIPT = `
local total = redis.call('INCRBY', KEYS[1], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  ttl = tonumber(ARGV[2])
end
return {total, ttl}`;

type SyncingRedis = Redis & {
  rateLimitSync(key: string, hits: number, windowMs: number): Promise<[number, number]>;
};

/** One client's window as this gateway sees it. */
interface Window {
  /** The shared count at the last sync (every replica's hits, this one's synced hits included). */
  shared: number;
  /** This gateway's hits not yet added to the shared count. */
  pending: number;
  /** Hits being added right now. */
  inFlight: number;
  resetAt: number;
  syncQueued: boolean;
}

/**
 * A rate-limit store that decides in memory and shares through Redis behind the request: each hit is
 * counted locally and answered at once (the shared count as last seen plus this gateway's own hits),
 * and the hits are added to the count in Redis at most every `syncMs` per client, in one script call
 * that also brings back what the other replicas added. For a single gateway the count is exact; with
 * several, each sees the others' hits at most `syncMs` late. A request never waits for Redis, and
 * while Redis is away the limit keeps applying from memory (never fail open); the hits counted
 * meanwhile are added once it is back.
 */
export class LocalFirstRedisStore implements Store {
  readonly localKeys = false;
  private windowMs = 60_000;
  private readonly windows = new Map<string, Window>();
  private sweeper: NodeJS.Timeout | undefined;
  private readonly redis: SyncingRedis;

  constructor(
    redis: Redis,
    readonly prefix: string,
    private readonly syncMs: number,
    private readonly outages: OutageListener,
  ) {
    if (!('rateLimitSync' in redis))
      redis.defineCommand('rateLimitSync', { numberOfKeys: 1, lua: SYNC_SCRIPT });
    this.redis = redis as SyncingRedis;
  }

  init(options: Options): void {
    this.windowMs = options.windowMs;
    // Windows that ended and have nothing left to add are dropped, so memory follows active clients.
    this.sweeper = setInterval(() => this.sweep(), this.windowMs);
    this.sweeper.unref();
  }

  increment(key: string): IncrementResponse {
    const window = this.current(key);
    window.pending++;
    this.queueSync(key, window);
    return this.info(window);
  }

  decrement(key: string): void {
    const window = this.windows.get(key);
    if (!window) return;
    window.pending--;
    this.queueSync(key, window);
  }

  get(key: string): ClientRateLimitInfo | undefined {
    const window = this.windows.get(key);
    return window && window.resetAt > Date.now() ? this.info(window) : undefined;
  }

  async resetKey(key: string): Promise<void> {
    this.windows.delete(key);
    if (isRedisReady(this.redis)) await this.redis.del(this.prefix + key).catch(() => undefined);
  }

  shutdown(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.windows.clear();
  }

  private current(key: string): Window {
    const now = Date.now();
    let window = this.windows.get(key);
    if (!window || window.resetAt <= now) {
      window = { shared: 0, pending: 0, inFlight: 0, resetAt: now + this.windowMs, syncQueued: false };
      this.windows.set(key, window);
    }
    return window;
  }

  private info(window: Window): ClientRateLimitInfo {
    return {
      totalHits: window.shared + window.inFlight + window.pending,
      resetTime: new Date(window.resetAt),
    };
  }

  private queueSync(key: string, window: Window): void {
    if (window.syncQueued) return;
    window.syncQueued = true;
    setTimeout(() => {
      window.syncQueued = false;
      void this.sync(key, window);
    }, this.syncMs).unref();
  }

  private async sync(key: string, window: Window): Promise<void> {
    // One script call per window at a time; hits arriving meanwhile go with the next one.
    if (window.inFlight !== 0 || window.pending === 0 || this.windows.get(key) !== window) return;
    if (!isRedisReady(this.redis)) {
      this.outages.fellBack('not connected');
      return; // the next hit queues a sync again
    }
    window.inFlight = window.pending;
    window.pending = 0;
    try {
      const [total, ttl] = await this.redis.rateLimitSync(this.prefix + key, window.inFlight, this.windowMs);
      window.shared = Number(total);
      window.resetAt = Date.now() + Number(ttl);
      this.outages.recovered();
    } catch (error) {
      window.pending += window.inFlight;
      this.outages.fellBack((error as Error).message);
    } finally {
      window.inFlight = 0;
    }
    if (window.pending !== 0) this.queueSync(key, window);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [key, window] of this.windows) {
      if (window.resetAt <= now && window.inFlight === 0) this.windows.delete(key);
    }
  }
}
