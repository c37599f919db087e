import { Redis } from 'ioredis';
import type { Logger } from '@crm/server-kit';

/**
 * The gateway's Redis connection, tuned so that Redis being slow or gone never holds a request:
 * no offline queue (commands fail at once while disconnected), no per-command retries, a short
 * command timeout, and reconnection in the background forever (capped backoff).
 * Callers check `isRedisReady()` first and fall back (memory rate limits, skipped session check).
 */
export function createRedisClient(url: string, commandTimeoutMs: number, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: commandTimeoutMs,
    connectTimeout: 2000,
    autoResendUnfulfilledCommands: false,
    enableAutoPipelining: true,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
    // The auth service owns these keys; the gateway only reads them and its own rate-limit counters.
    connectionName: 'gateway',
  });
  // Log state changes once per outage, not once per reconnect attempt.
  let down = false;
  redis.on('ready', () => {
    if (down) logger.info('redis is back: shared rate limits and session checks resume');
    down = false;
  });
  redis.on('error', (error: Error) => {
    if (!down)
      logger.warn({ err: error.message }, 'redis unavailable: in-memory rate limits, session checks skipped');
    down = true;
  });
  redis.on('end', () => {
    down = true;
  });
  return redis;
}

export function isRedisReady(redis: Redis): boolean {
  return redis.status === 'ready';
}
