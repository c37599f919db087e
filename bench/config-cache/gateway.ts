/**
 * The gateway of the config-cache benchmark, run as its own process: the real gateway
 * (createGateway) with the view-configuration cache as its route middleware and its invalidation
 * consumer, or without them when VIEW_CONFIG_CACHE=off (every call proxied to the config service).
 */
import http from 'node:http';
import { createLogger } from '@crm/server-kit';
import { createGateway } from '../../gateway/src/app';
import { loadGatewayConfig } from '../../gateway/src/config';
import { createRedisClient } from '../../gateway/src/redis-client';
import {
  createViewConfigCache,
  startViewConfigInvalidation,
  viewConfigCacheEnvSchema,
} from '../../gateway/src/view-config-cache';

const config = loadGatewayConfig();
const cacheSettings = viewConfigCacheEnvSchema.parse(process.env);
const logger = createLogger('bench-gateway', config.LOG_LEVEL);
const redis = createRedisClient(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, logger);
const enabled = process.env.VIEW_CONFIG_CACHE !== 'off';

const cache = enabled
  ? createViewConfigCache({
      redis,
      jwtSecret: config.JWT_SECRET,
      logger,
      ttlSeconds: cacheSettings.VIEW_CONFIG_CACHE_TTL_SECONDS,
      keyPrefix: cacheSettings.VIEW_CONFIG_CACHE_PREFIX,
    })
  : undefined;
const gateway = createGateway(config, {
  logger,
  redis,
  routeMiddleware: cache ? [cache.routeMiddleware] : [],
});
if (cache) {
  startViewConfigInvalidation(cache, {
    amqpUrl: cacheSettings.AMQP_URL,
    exchange: cacheSettings.EVENTS_EXCHANGE,
    queuePrefix: cacheSettings.QUEUE_PREFIX,
    logger,
  });
}

const server = http.createServer(gateway.listener);
server.keepAliveTimeout = 65_000;
server.listen(config.PORT, config.HOST, () => process.send?.('ready'));
process.on('SIGTERM', () => process.exit(0));
