import http from 'node:http';
import { ConfigError, createLogger, handleShutdown } from '@crm/server-kit';
import { createGateway } from './app';
import { loadGatewayConfig, type GatewayConfig } from './config';
import { createRedisClient } from './redis-client';
import { createViewConfigCache, startViewConfigInvalidation } from './view-config-cache';

function loadOrExit(): GatewayConfig {
  try {
    return loadGatewayConfig();
  } catch (error) {
    // Fail fast with every problem listed: a missing JWT_SECRET must stop start-up, never turn auth off.
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}

const config = loadOrExit();
const logger = createLogger('gateway', config.LOG_LEVEL);
const redis = createRedisClient(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, logger);
// Form configurations are read on every clinical-record screen and change rarely: cached in Redis,
// invalidated by the config service's view-updated event.
const viewCache = createViewConfigCache({
  redis,
  jwtSecret: config.JWT_SECRET,
  logger,
  ttlSeconds: config.VIEW_CONFIG_CACHE_TTL_SECONDS,
  keyPrefix: config.VIEW_CONFIG_CACHE_PREFIX,
});
const gateway = createGateway(config, { logger, redis, routeMiddleware: [viewCache.routeMiddleware] });
const stopViewCache = startViewConfigInvalidation(viewCache, {
  amqpUrl: config.AMQP_URL,
  exchange: config.EVENTS_EXCHANGE,
  queuePrefix: config.QUEUE_PREFIX,
  logger,
});

const server = http.createServer(gateway.listener);
// Longer than typical load-balancer idle timeouts, so they close idle connections first, not us.
server.keepAliveTimeout = 65_000;
server.headersTimeout = 66_000;

server.listen(config.PORT, config.HOST, () => {
  logger.info({ port: config.PORT, host: config.HOST }, 'gateway listening');
});

// Readiness turns 503 at the first signal; handleShutdown then drains and closes.
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => gateway.startDraining());
handleShutdown(server, [() => gateway.close(), stopViewCache, () => redis.quit()], logger);
