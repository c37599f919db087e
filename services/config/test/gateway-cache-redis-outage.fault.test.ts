import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ViewConfigView } from '@crm/contracts';
import { createLogger } from '@crm/server-kit';
import {
  eventually,
  infrastructure,
  listen,
  mintToken,
  TEST_JWT_SECRET,
  uniqueName,
  type RunningServer,
} from '@crm/testing';
import type { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { createGateway, type Gateway } from '../../../gateway/src/app';
import { loadGatewayConfig } from '../../../gateway/src/config';
import { createRedisClient } from '../../../gateway/src/redis-client';
import {
  createViewConfigCache,
  startViewConfigInvalidation,
  type StopViewConfigInvalidation,
  type ViewConfigCache,
} from '../../../gateway/src/view-config-cache';
import { deleteConsumerQueues } from '../../../test-support/components/records';
import { startConfig } from '../../../test-support/components/config';
import type { StartedComponent } from '../../../test-support/components/types';

/**
 * Fault test (run on its own by `npm test`): stops the machine's shared Redis, and always starts
 * it again. The gateway must keep answering `GET /config/view` correctly from the config service
 * meanwhile, and must not serve a configuration that changed during the outage afterwards.
 */
const REDIS_START = [
  '--daemonize',
  'yes',
  '--bind',
  '127.0.0.1',
  '--port',
  '6379',
  '--save',
  '',
  '--appendonly',
  'no',
];
const redisAnswers = () => {
  try {
    return (
      execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', '6379', 'ping'], {
        encoding: 'utf8',
        timeout: 2000,
        stdio: ['ignore', 'pipe', 'ignore'],
      }).trim() === 'PONG'
    );
  } catch {
    return false;
  }
};
const stopRedis = () =>
  execFileSync('redis-cli', ['-h', '127.0.0.1', '-p', '6379', 'shutdown', 'nosave'], {
    stdio: 'ignore',
    timeout: 5000,
  });
async function startRedis(): Promise<void> {
  if (redisAnswers()) return;
  execFileSync('redis-server', REDIS_START, { stdio: 'ignore' });
  await eventually(async () => (redisAnswers() ? true : undefined), 10_000, 'redis started');
}

const logger = createLogger('gateway-cache-fault', process.env.TEST_LOG_LEVEL ?? 'silent');
const id = uniqueName('gwcachefault');
const doctor = mintToken({ id: '0123456789abcdef01234567', rol: 'DOCTOR' });
const admin = mintToken({ id: '0123456789abcdef01234568', rol: 'ADMIN' });

let infra: Awaited<ReturnType<typeof infrastructure>>;
let configService: StartedComponent;
let redis: Redis;
let cache: ViewConfigCache;
let stopInvalidation: StopViewConfigInvalidation;
let gateway: Gateway;
let server: RunningServer;

beforeAll(async () => {
  infra = await infrastructure();
  if (!/127\.0\.0\.1:6379|localhost:6379/.test(infra.redisUrl))
    throw new Error('this fault test stops the local Redis on 127.0.0.1:6379');
  await startRedis();
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    MONGO_URL: infra.mongoUrl,
    AMQP_URL: infra.amqpUrl,
    EVENTS_EXCHANGE: `${id}.events`,
    QUEUE_PREFIX: id,
  };
  configService = await startConfig({ env, id, logger: () => logger });
  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    REDIS_URL: infra.redisUrl,
    CONFIG_SERVICE_URL: configService.url,
    RATE_LIMIT_REDIS_PREFIX: `${id}:rl:`,
    RATE_LIMIT_MAX: '1000000',
    FRONTENDS_DIR: mkdtempSync(path.join(os.tmpdir(), 'gateway-frontends-')),
    PORT: '0',
  });
  redis = createRedisClient(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, logger);
  cache = createViewConfigCache({
    redis,
    jwtSecret: TEST_JWT_SECRET,
    logger,
    keyPrefix: `${id}:view-config:`,
  });
  gateway = createGateway(config, { logger, redis, routeMiddleware: [cache.routeMiddleware] });
  server = await listen(gateway.listener);
  stopInvalidation = startViewConfigInvalidation(cache, {
    amqpUrl: infra.amqpUrl,
    exchange: env.EVENTS_EXCHANGE,
    queuePrefix: id,
    logger,
  });
  await stopInvalidation.ready();
  await eventually(async () => (cache.isServing() ? true : undefined), 5000, 'cache serving');
}, 60_000);

afterAll(async () => {
  await startRedis();
  // This file's keys (entries, version markers, rate-limit counters) go with it.
  if (redis?.status === 'ready') {
    for await (const keys of redis.scanStream({ match: `${id}:*`, count: 200 }) as AsyncIterable<string[]>)
      if (keys.length > 0) await redis.del(...keys);
  }
  await server?.close();
  await stopInvalidation?.();
  await deleteConsumerQueues(infra.amqpUrl, `${id}.gateway.view-cache`);
  await gateway?.close();
  redis?.disconnect();
  await configService?.stop();
  const connection = await mongoose.createConnection(infra.mongoUrl).asPromise();
  await connection.useDb(`${id}_config`).dropDatabase();
  await connection.close();
}, 30_000);

const view = `${id.replace(/_/g, '-')}/form`;
const url = () => `${server.url}/api/v1/config/view?view=${encodeURIComponent(view)}`;

async function get() {
  const started = Date.now();
  const response = await fetch(url(), { headers: { authorization: `Bearer ${doctor}` } });
  return {
    status: response.status,
    cache: response.headers.get('x-cache'),
    body: (await response.json()) as ViewConfigView,
    ms: Date.now() - started,
  };
}

async function put(label: string) {
  const response = await fetch(url(), {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${admin}` },
    body: JSON.stringify({ fields: [{ name: 'note', label, fieldType: 'TEXT' }] }),
  });
  expect([200, 201]).toContain(response.status);
}

it('answers correctly from the service while Redis is down, and serves no stale configuration once it is back', async () => {
  await put('Nota v1');
  expect((await get()).cache).toBe('MISS');
  await eventually(async () => ((await get()).cache === 'HIT' ? true : undefined), 3000, 'cached');

  stopRedis();
  try {
    await eventually(async () => (redis.status !== 'ready' ? true : undefined), 5000, 'redis seen down');
    for (let i = 0; i < 5; i++) {
      const answer = await get();
      expect(answer).toMatchObject({ status: 200, cache: 'BYPASS', body: { view, version: 1 } });
      expect(answer.ms).toBeLessThan(1000);
    }
    // An admin changes the form during the outage: its invalidation cannot reach Redis now.
    await put('Nota v2');
    const during = await get();
    expect(during).toMatchObject({ status: 200, cache: 'BYPASS', body: { version: 2 } });
    expect(during.body.fields[0]!.label).toBe('Nota v2');
  } finally {
    await startRedis();
  }

  await eventually(async () => (redis.status === 'ready' ? true : undefined), 10_000, 'redis reconnected');
  // From now on every answer is version 2, whether it comes from the service or from the cache.
  const seen = new Set<string>();
  await eventually(
    async () => {
      const answer = await get();
      expect(answer.status).toBe(200);
      expect(answer.body.version).toBe(2);
      seen.add(answer.cache!);
      return answer.cache === 'HIT' ? true : undefined;
    },
    5000,
    'served from the cache again',
  );
  expect(seen.has('HIT')).toBe(true);
}, 60_000);
