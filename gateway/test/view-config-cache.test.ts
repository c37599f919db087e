import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Role, ViewConfigView } from '@crm/contracts';
import { createLogger } from '@crm/server-kit';
import {
  eventually,
  infrastructure,
  listen,
  listenForMessages,
  mintToken,
  TEST_JWT_SECRET,
  uniqueName,
  type RunningServer,
} from '@crm/testing';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { deleteConsumerQueues } from '../../test-support/components/records';
import { startConfig } from '../../test-support/components/config';
import type { StartedComponent } from '../../test-support/components/types';
import { createGateway, type Gateway } from '../src/app';
import { loadGatewayConfig } from '../src/config';
import { createRedisClient } from '../src/redis-client';
import {
  cacheableView,
  createViewConfigCache,
  startViewConfigInvalidation,
  type StopViewConfigInvalidation,
  type ViewConfigCache,
} from '../src/view-config-cache';

/**
 * The gateway's cache of `GET /api/v1/config/view` against the real config service, Redis and
 * RabbitMQ: a gateway built here with the cache as its route middleware.
 */
const logger = createLogger('gateway-cache-test', process.env.TEST_LOG_LEVEL ?? 'silent');
const id = uniqueName('gwcache');
const tokens = Object.fromEntries(
  (['PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'] as Role[]).map((rol) => [
    rol,
    mintToken({ id: '0123456789abcdef0123456' + rol.length, rol }),
  ]),
) as Record<Role, string>;

let infra: Awaited<ReturnType<typeof infrastructure>>;
let configService: StartedComponent;
let redis: Redis;
let cache: ViewConfigCache;
let stopInvalidation: StopViewConfigInvalidation;
let gateway: Gateway;
let server: RunningServer;

function gatewayConfig(configUrl: string, redisUrl: string) {
  return loadGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    JWT_SECRET: TEST_JWT_SECRET,
    REDIS_URL: redisUrl,
    CONFIG_SERVICE_URL: configUrl,
    RATE_LIMIT_REDIS_PREFIX: `${id}:rl:`,
    RATE_LIMIT_MAX: '1000000',
    FRONTENDS_DIR: mkdtempSync(path.join(os.tmpdir(), 'gateway-frontends-')),
    PORT: '0',
  });
}

beforeAll(async () => {
  infra = await infrastructure();
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
  const config = gatewayConfig(configService.url!, infra.redisUrl);
  redis = createRedisClient(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, logger);
  cache = createViewConfigCache({
    redis,
    jwtSecret: config.JWT_SECRET,
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
});

const viewPath = (view: string) => `/api/v1/config/view?view=${encodeURIComponent(view)}`;

async function get(view: string, token = tokens.DOCTOR, url = viewPath(view)) {
  const response = await fetch(`${server.url}${url}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  const text = await response.text();
  return {
    status: response.status,
    cache: response.headers.get('x-cache'),
    text,
    body: JSON.parse(text) as ViewConfigView & { message?: string },
  };
}

async function putView(view: string, label: string) {
  const response = await fetch(`${server.url}${viewPath(view)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.ADMIN}` },
    body: JSON.stringify({ fields: [{ name: 'note', label, fieldType: 'TEXT' }] }),
  });
  expect([200, 201]).toContain(response.status);
  return (await response.json()) as ViewConfigView;
}

/** A view of this test's own, stored through the gateway. */
async function freshView(label = 'Nota v1') {
  const view = `${uniqueName('view').replace(/_/g, '-')}/form`;
  await putView(view, label);
  return view;
}

/** Waits until the answer to `view` is in Redis (it is stored once the response has been sent). */
const cached = (view: string) =>
  eventually(
    async () => ((await redis.get(cache.entryKey(view))) === null ? undefined : true),
    2000,
    'entry stored',
  );

describe('GET /api/v1/config/view through the cache', () => {
  it('misses on the first call and hits on the second, with the same answer', async () => {
    const view = await freshView();
    const first = await get(view);
    expect(first).toMatchObject({ status: 200, cache: 'MISS', body: { view, version: 1 } });
    await cached(view);
    const second = await get(view, tokens.ADMIN);
    expect(second).toMatchObject({ status: 200, cache: 'HIT' });
    expect(second.text).toBe(first.text);
  });

  it("answers an admin's update on the next call, within a second of the event", async () => {
    const view = await freshView('Nota v1');
    await get(view);
    await cached(view);
    expect((await get(view)).cache).toBe('HIT');

    const listener = await listenForMessages<{ data: { view: string; version: number } }>(
      infra.amqpUrl,
      `${id}.events`,
      'config.view.updated.v1',
    );
    try {
      await putView(view, 'Nota v2');
      await listener.waitFor(
        (message) => message.body.data.view === view && message.body.data.version === 2,
        5000,
      );
      const announced = Date.now();
      const updated = await eventually(
        async () => {
          const answer = await get(view);
          return answer.body.version === 2 ? answer : undefined;
        },
        1000,
        'version 2 served',
      );
      expect(Date.now() - announced).toBeLessThan(1000);
      expect(updated.body.fields[0]!.label).toBe('Nota v2');
      await cached(view);
      expect(await get(view)).toMatchObject({ cache: 'HIT', body: { version: 2 } });
    } finally {
      await listener.close();
    }
  });

  it('never answers a patient or the kiosk from the cache: they get the service’s 403', async () => {
    const view = await freshView();
    await get(view);
    await cached(view);
    expect(await get(view, tokens.PACIENT)).toMatchObject({ status: 403, cache: 'BYPASS' });
    expect(await get(view, tokens.SERVICE_ACCOUNT)).toMatchObject({ status: 403, cache: 'BYPASS' });
    const anonymous = await get(view, '');
    expect(anonymous.status).toBe(401);
    expect(anonymous.cache).toBeNull();
  });

  it('does not keep a 404, and passes other queries through uncached', async () => {
    const unknown = `${uniqueName('missing')}/form`;
    expect(await get(unknown)).toMatchObject({ status: 404, cache: 'MISS' });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await get(unknown)).toMatchObject({ status: 404, cache: 'MISS' });
    const view = await freshView();
    expect(await get(view, tokens.DOCTOR, `${viewPath(view)}&version=1`)).toMatchObject({
      status: 200,
      cache: 'BYPASS',
      body: { version: 1 },
    });
    expect((await get(view, tokens.DOCTOR, '/api/v1/config/view')).status).toBe(400);
  });

  it('refuses to store an answer older than a version already announced (an update racing a miss)', async () => {
    const view = `${uniqueName('race')}/form`;
    await cache.invalidate(view, 5);
    expect(await cache.store(view, JSON.stringify({ view, version: 4, fields: [] }))).toBe(false);
    expect(await redis.get(cache.entryKey(view))).toBeNull();
    expect(await cache.store(view, JSON.stringify({ view, version: 5, fields: [] }))).toBe(true);
    expect(await cache.store(view, JSON.stringify({ view: 'other', version: 9, fields: [] }))).toBe(false);
    await cache.invalidate(view, 3); // an older announcement never lowers the bar
    expect(await cache.store(view, JSON.stringify({ view, version: 4, fields: [] }))).toBe(false);
  });

  it('flushes what it holds after a Redis reconnect before serving from it again', async () => {
    const view = await freshView();
    await get(view);
    await cached(view);
    redis.emit('ready'); // what ioredis emits when it is connected again
    expect((await get(view)).cache).toBe('BYPASS');
    await eventually(async () => (cache.isServing() ? true : undefined), 2000, 'flushed');
    expect(await redis.get(cache.entryKey(view))).toBeNull();
    expect((await get(view)).cache).toBe('MISS');
  });
});

describe('when the cache cannot be trusted or reached', () => {
  it('passes everything through while it does not hear invalidations', async () => {
    const deaf = createViewConfigCache({ redis, jwtSecret: TEST_JWT_SECRET, keyPrefix: `${id}:deaf:` });
    deaf.attachInvalidation({ isConsuming: () => false });
    const gw = createGateway(gatewayConfig(configService.url!, infra.redisUrl), {
      logger,
      redis,
      routeMiddleware: [deaf.routeMiddleware],
    });
    const running = await listen(gw.listener);
    try {
      const view = await freshView();
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${running.url}${viewPath(view)}`, {
          headers: { authorization: `Bearer ${tokens.DOCTOR}` },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('x-cache')).toBe('BYPASS');
      }
    } finally {
      await running.close();
      await gw.close();
    }
  });

  it('answers from the service, without waiting, when Redis is unreachable', async () => {
    const config = gatewayConfig(configService.url!, 'redis://127.0.0.1:1');
    // Never connected (a real outage, with reconnect attempts, is the fault test's subject).
    const deadRedis = new Redis(config.REDIS_URL, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const unreachable = createViewConfigCache({ redis: deadRedis, jwtSecret: TEST_JWT_SECRET });
    unreachable.attachInvalidation({ isConsuming: () => true });
    // The gateway's own rate limits and session checks keep the working Redis; only the cache has none.
    const gw = createGateway(config, { logger, redis, routeMiddleware: [unreachable.routeMiddleware] });
    const running = await listen(gw.listener);
    try {
      const view = await freshView();
      const started = Date.now();
      const response = await fetch(`${running.url}${viewPath(view)}`, {
        headers: { authorization: `Bearer ${tokens.DOCTOR}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('x-cache')).toBe('BYPASS');
      expect(((await response.json()) as ViewConfigView).view).toBe(view);
      expect(Date.now() - started).toBeLessThan(1000);
    } finally {
      await running.close();
      await gw.close();
      deadRedis.disconnect();
    }
  });
});

describe('which requests are cacheable', () => {
  it.each([
    ['/api/v1/config/view?view=doctor/appointments/:id', 'doctor/appointments/:id'],
    ['/api/v1/config/view?view=doctor%2Fappointments%2F%3Aid', 'doctor/appointments/:id'],
    ['/api/v1/config/view', undefined],
    ['/api/v1/config/view?view=a&view=b', undefined],
    ['/api/v1/config/view?view=a&version=1', undefined],
    ['/api/v1/config/view?version=1&view=a', undefined],
    ['/api/v1/config/view?view=', undefined],
    ['/api/v1/config/view?view=../x', undefined],
  ])('%s → %s', (url, expected) => {
    expect(cacheableView(url)).toBe(expected);
  });
});

describe('invalidation', () => {
  it('deletes an entry older than the announced version, and keeps one that is as new', async () => {
    const view = `${uniqueName('late')}/form`;
    expect(await cache.store(view, JSON.stringify({ view, version: 2, fields: [] }))).toBe(true);
    await cache.invalidate(view, 2); // a late announcement of what is cached already
    expect(await redis.get(cache.entryKey(view))).not.toBeNull();
    await cache.invalidate(view, 3);
    expect(await redis.get(cache.entryKey(view))).toBeNull();
  });
});
