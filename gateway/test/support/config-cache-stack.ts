import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Role } from '@crm/contracts';
import { createLogger, type Logger } from '@crm/server-kit';
import {
  deleteQueues,
  eventually,
  infrastructure,
  listen,
  mintToken,
  prepareBus,
  TEST_VERIFIER_ENV,
  uniqueName,
} from '@crm/testing';
import type { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { DEPLOYABLES } from '../../../test-support/deployables';
import { loadGatewayConfig, type GatewayConfig } from '../../src/config';
import type { ConfigCache } from '../../src/config-cache';
import { startGateway } from '../../src/start-gateway';

/**
 * The gateway's config cache against the real config service, Redis and RabbitMQ, wired as
 * `gateway/src/main.ts` does: a config service of its own (database `<id>_config`, exchange
 * `<id>.events`), a gateway with the cache as its route middleware, and the invalidation consumer.
 * Every key it writes in Redis starts with `<id>:`.
 */
export interface ConfigCacheStack {
  id: string;
  /** The gateway's base URL. */
  url: string;
  amqpUrl: string;
  exchange: string;
  redis: Redis;
  cache: ConfigCache;
  /** The config service's base URL. */
  configServiceUrl: string;
  /** A token per role, for users that exist only in the token (enough for the config service). */
  tokens: Record<Role, string>;
  logger: Logger;
  /** A gateway configuration for this config service, with another Redis if given. */
  gatewayConfig(redisUrl?: string): GatewayConfig;
  /** `GET <path>` through the gateway (with a bearer token if given). */
  get<T>(path: string, token?: string): Promise<GatewayAnswer<T>>;
  stop(): Promise<void>;
}

export interface GatewayAnswer<T> {
  status: number;
  /** The `X-Cache` header: HIT, MISS, BYPASS, or null when the cache did not see the request. */
  cache: string | null;
  text: string;
  body: T;
  ms: number;
}

export async function startConfigCacheStack(label: string): Promise<ConfigCacheStack> {
  const infra = await infrastructure();
  const id = uniqueName(label);
  const logger = createLogger(label, process.env.TEST_LOG_LEVEL ?? 'silent');
  const exchange = `${id}.events`;
  // What a deployment's broker definitions declare; each deployable then connects as its own user.
  await prepareBus(infra.amqpUrl, { exchange, queuePrefix: id });
  // The config service as its main.ts creates it, on a port of its own.
  const configService = await DEPLOYABLES.config.create(
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ...TEST_VERIFIER_ENV,
      MONGO_URL: infra.mongoUrl,
      MONGO_DB: `${id}_config`,
      AMQP_URL: infra.busUrls.config,
      EVENTS_EXCHANGE: exchange,
      QUEUE_PREFIX: id,
    },
    logger,
  );
  const configServer = await listen(configService.app);
  await configService.start();
  await configService.consuming();
  const gatewayConfig = (redisUrl = infra.redisUrl) =>
    loadGatewayConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      ...TEST_VERIFIER_ENV,
      REDIS_URL: redisUrl,
      CONFIG_SERVICE_URL: configServer.url,
      AMQP_URL: infra.busUrls.gateway,
      EVENTS_EXCHANGE: exchange,
      RATE_LIMIT_REDIS_PREFIX: `${id}:rl:`,
      RATE_LIMIT_MAX: '1000000',
      FRONTENDS_DIR: mkdtempSync(path.join(os.tmpdir(), 'gateway-frontends-')),
      PORT: '0',
    });
  const server = await startGateway(gatewayConfig(), {
    logger,
    cacheKeyPrefix: `${id}:config:`,
    queuePrefix: id,
  });
  const cache = server.configCache!;
  const redis = server.gateway.redis;
  await server.cacheReady();
  await eventually(() => cache.isServing(), 5000, 'cache serving');

  const tokens = Object.fromEntries(
    (['PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'] as Role[]).map((rol) => [
      rol,
      mintToken({ id: '0123456789abcdef0123456' + rol.length, rol }),
    ]),
  ) as Record<Role, string>;

  return {
    id,
    url: server.url,
    amqpUrl: infra.amqpUrl,
    exchange,
    redis,
    cache,
    configServiceUrl: configServer.url,
    tokens,
    logger,
    gatewayConfig,
    async get<T>(path: string, token?: string) {
      const started = Date.now();
      const response = await fetch(`${server.url}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      const text = await response.text();
      return {
        status: response.status,
        cache: response.headers.get('x-cache'),
        text,
        body: JSON.parse(text) as T,
        ms: Date.now() - started,
      };
    },
    async stop() {
      // This stack's keys (entries, version markers, rate-limit counters) go with it.
      if (redis.status === 'ready') {
        const keys = redis.scanStream({ match: `${id}:*`, count: 200 }) as AsyncIterable<string[]>;
        for await (const batch of keys) if (batch.length > 0) await redis.del(...batch);
      }
      await server.close();
      await configServer.close();
      await configService.stop();
      await deleteQueues(
        infra.amqpUrl,
        [`${id}.gateway.view-cache`, ...configService.queueNames()],
        [exchange],
      );
      const connection = await mongoose.createConnection(infra.mongoUrl).asPromise();
      await connection.useDb(`${id}_config`).dropDatabase();
      await connection.close();
    },
  };
}
