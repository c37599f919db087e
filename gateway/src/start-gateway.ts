import http from 'node:http';
import { createLogger, eventBusMetrics, type Logger } from '@crm/server-kit';
import { createGateway, gatewayTokens, type Gateway } from './app';
import type { GatewayConfig } from './config';
import { createConfigCache, type ConfigCache } from './config-cache';
import { startConfigCacheInvalidation } from './config-cache-invalidation';
import { createRedisClient } from './redis-client';
import { gatewayStatusHeader } from './system-status-header';

export interface StartGatewayOptions {
  logger?: Logger;
  /** Namespace of the cache keys and of the invalidation queue (tests give each stack its own). */
  cacheKeyPrefix?: string;
  queuePrefix?: string;
  /** `false` runs without the config cache (the benchmark's baseline). Default on. */
  configCache?: boolean;
}

export interface RunningGateway {
  gateway: Gateway;
  server: http.Server;
  /** `http://127.0.0.1:<port>` once listening. */
  url: string;
  configCache?: ConfigCache;
  /** Resolves once the cache's invalidation queue is bound (events before that are not heard). */
  cacheReady(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The gateway wired the one way production, tests and benchmarks all use: its Redis client, the
 * config cache (form configurations and the centre profile) and its invalidation feed, the proxy and
 * the HTTP server with keep-alive longer than typical load balancers'.
 */
export async function startGateway(
  config: GatewayConfig,
  options: StartGatewayOptions = {},
): Promise<RunningGateway> {
  const logger = options.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const redis = createRedisClient(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, logger);
  const tokens = gatewayTokens(config, logger);
  const configCache =
    options.configCache === false
      ? undefined
      : createConfigCache({
          redis,
          tokens,
          logger,
          ttlSeconds: config.VIEW_CONFIG_CACHE_TTL_SECONDS,
          keyPrefix: options.cacheKeyPrefix ?? config.VIEW_CONFIG_CACHE_PREFIX,
        });
  const gateway = createGateway(config, {
    logger,
    redis,
    tokens,
    routeMiddleware: [...(configCache ? [configCache.routeMiddleware] : []), gatewayStatusHeader()],
  });
  const stopInvalidation = configCache
    ? startConfigCacheInvalidation(configCache, {
        amqpUrl: config.AMQP_URL,
        exchange: config.EVENTS_EXCHANGE,
        queuePrefix: options.queuePrefix ?? config.QUEUE_PREFIX,
        logger,
        metrics: eventBusMetrics(gateway.metrics.metrics),
      })
    : undefined;

  const server = http.createServer(gateway.listener);
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.PORT, config.HOST, () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  logger.info({ port, host: config.HOST }, 'gateway listening');

  return {
    gateway,
    server,
    url: `http://127.0.0.1:${port}`,
    configCache,
    cacheReady: async (timeoutMs) => stopInvalidation?.ready(timeoutMs),
    async close() {
      gateway.startDraining();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
        server.closeAllConnections();
      });
      await gateway.close();
      await stopInvalidation?.();
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
