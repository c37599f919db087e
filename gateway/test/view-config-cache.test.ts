import type { ViewConfigView } from '@crm/contracts';
import { eventually, listen, listenForMessages, testTokens, uniqueName } from '@crm/testing';
import { Redis } from 'ioredis';
import { createGateway } from '../src/app';
import { cacheableView, createConfigCache } from '../src/config-cache';
import { startConfigCacheStack, type ConfigCacheStack } from './support/config-cache-stack';

/**
 * The gateway's cache of `GET /api/v1/config/view` against the real config service, Redis and
 * RabbitMQ: a gateway built here with the cache as its route middleware.
 */
let stack: ConfigCacheStack;

beforeAll(async () => {
  stack = await startConfigCacheStack('gwcache');
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const viewPath = (view: string) => `/api/v1/config/view?view=${encodeURIComponent(view)}`;

const get = (view: string, token = stack.tokens.DOCTOR, url = viewPath(view)) =>
  stack.get<ViewConfigView & { message?: string }>(url, token);

async function putView(view: string, label: string) {
  const response = await fetch(`${stack.url}${viewPath(view)}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.tokens.ADMIN}` },
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
    async () => ((await stack.redis.get(stack.cache.entryKey('view', view))) === null ? undefined : true),
    2000,
    'entry stored',
  );

describe('GET /api/v1/config/view through the cache', () => {
  it('misses on the first call and hits on the second, with the same answer', async () => {
    const view = await freshView();
    const first = await get(view);
    expect(first).toMatchObject({ status: 200, cache: 'MISS', body: { view, version: 1 } });
    await cached(view);
    const second = await get(view, stack.tokens.ADMIN);
    expect(second).toMatchObject({ status: 200, cache: 'HIT' });
    expect(second.text).toBe(first.text);
  });

  it("answers an admin's update on the next call, within a second of the event", async () => {
    const view = await freshView('Nota v1');
    await get(view);
    await cached(view);
    expect((await get(view)).cache).toBe('HIT');

    const listener = await listenForMessages<{ data: { view: string; version: number } }>(
      stack.amqpUrl,
      stack.exchange,
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
    expect(await get(view, stack.tokens.PACIENT)).toMatchObject({ status: 403, cache: 'BYPASS' });
    expect(await get(view, stack.tokens.SERVICE_ACCOUNT)).toMatchObject({ status: 403, cache: 'BYPASS' });
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
    expect(await get(view, stack.tokens.DOCTOR, `${viewPath(view)}&version=1`)).toMatchObject({
      status: 200,
      cache: 'BYPASS',
      body: { version: 1 },
    });
    expect((await get(view, stack.tokens.DOCTOR, '/api/v1/config/view')).status).toBe(400);
  });

  it('refuses to store an answer older than a version already announced (an update racing a miss)', async () => {
    const view = `${uniqueName('race')}/form`;
    await stack.cache.invalidate('view', view, 5);
    expect(await stack.cache.store('view', view, JSON.stringify({ view, version: 4, fields: [] }))).toBe(
      false,
    );
    expect(await stack.redis.get(stack.cache.entryKey('view', view))).toBeNull();
    expect(await stack.cache.store('view', view, JSON.stringify({ view, version: 5, fields: [] }))).toBe(
      true,
    );
    expect(
      await stack.cache.store('view', view, JSON.stringify({ view: 'other', version: 9, fields: [] })),
    ).toBe(false);
    await stack.cache.invalidate('view', view, 3); // an older announcement never lowers the bar
    expect(await stack.cache.store('view', view, JSON.stringify({ view, version: 4, fields: [] }))).toBe(
      false,
    );
  });

  it('flushes what it holds after a Redis reconnect before serving from it again', async () => {
    const view = await freshView();
    await get(view);
    await cached(view);
    stack.redis.emit('ready'); // what ioredis emits when it is connected again
    expect((await get(view)).cache).toBe('BYPASS');
    await eventually(async () => (stack.cache.isServing() ? true : undefined), 2000, 'flushed');
    expect(await stack.redis.get(stack.cache.entryKey('view', view))).toBeNull();
    expect((await get(view)).cache).toBe('MISS');
  });
});

describe('when the cache cannot be trusted or reached', () => {
  it('passes everything through while it does not hear invalidations', async () => {
    const deaf = createConfigCache({
      redis: stack.redis,
      tokens: testTokens(),
      keyPrefix: `${stack.id}:deaf:`,
    });
    deaf.attachInvalidation({ isConsuming: () => false });
    const gw = createGateway(stack.gatewayConfig(), {
      logger: stack.logger,
      redis: stack.redis,
      routeMiddleware: [deaf.routeMiddleware],
    });
    const running = await listen(gw.listener);
    try {
      const view = await freshView();
      for (let i = 0; i < 3; i++) {
        const response = await fetch(`${running.url}${viewPath(view)}`, {
          headers: { authorization: `Bearer ${stack.tokens.DOCTOR}` },
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
    const config = stack.gatewayConfig('redis://127.0.0.1:1');
    // Never connected (a real outage, with reconnect attempts, is the fault test's subject).
    const deadRedis = new Redis(config.REDIS_URL, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    });
    const unreachable = createConfigCache({ redis: deadRedis, tokens: testTokens() });
    unreachable.attachInvalidation({ isConsuming: () => true });
    // The gateway's own rate limits and session checks keep the working Redis; only the cache has none.
    const gw = createGateway(config, {
      logger: stack.logger,
      redis: stack.redis,
      routeMiddleware: [unreachable.routeMiddleware],
    });
    const running = await listen(gw.listener);
    try {
      const view = await freshView();
      const started = Date.now();
      const response = await fetch(`${running.url}${viewPath(view)}`, {
        headers: { authorization: `Bearer ${stack.tokens.DOCTOR}` },
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
    expect(await stack.cache.store('view', view, JSON.stringify({ view, version: 2, fields: [] }))).toBe(
      true,
    );
    await stack.cache.invalidate('view', view, 2); // a late announcement of what is cached already
    expect(await stack.redis.get(stack.cache.entryKey('view', view))).not.toBeNull();
    await stack.cache.invalidate('view', view, 3);
    expect(await stack.redis.get(stack.cache.entryKey('view', view))).toBeNull();
  });
});
