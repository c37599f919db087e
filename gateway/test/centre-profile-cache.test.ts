import { CENTRE_PROFILE_SEED, type CentreProfile } from '@crm/contracts';
import { eventually, listenForMessages } from '@crm/testing';
import { startConfigCacheStack, type ConfigCacheStack } from './support/config-cache-stack';

/**
 * The gateway's cache of the public `GET /api/v1/config/centre` against the real config service,
 * Redis and RabbitMQ (the same cache as view configurations, see view-config-cache.test.ts).
 */
let stack: ConfigCacheStack;

beforeAll(async () => {
  stack = await startConfigCacheStack('gwcentre');
}, 60_000);

afterAll(async () => {
  await stack?.stop();
});

const CENTRE = '/api/v1/config/centre';

const get = (path = CENTRE, token?: string) => stack.get<CentreProfile>(path, token);

async function putCentre(address: string, token = stack.tokens.ADMIN) {
  const response = await fetch(`${stack.url}${CENTRE}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...CENTRE_PROFILE_SEED, address }),
  });
  return { status: response.status, body: (await response.json()) as CentreProfile };
}

/** Waits until an answer of the given version is in Redis (stored once the response was sent). */
const cached = (version: number) =>
  eventually(
    async () => {
      const body = await stack.redis.get(stack.cache.entryKey('centre', 'current'));
      return body !== null && (JSON.parse(body) as CentreProfile).version === version ? true : undefined;
    },
    2000,
    `version ${version} stored`,
  );

describe('GET /api/v1/config/centre through the cache', () => {
  it('misses on the first call and hits on the second, without a token, with the same answer', async () => {
    const first = await get();
    expect(first).toMatchObject({ status: 200, cache: 'MISS' });
    expect(first.body.address).toBe(CENTRE_PROFILE_SEED.address);
    await cached(first.body.version);
    const second = await get();
    expect(second).toMatchObject({ status: 200, cache: 'HIT' });
    expect(second.text).toBe(first.text);
  });

  it('answers every caller from the cache: it is public', async () => {
    const { body } = await get();
    await cached(body.version);
    for (const token of Object.values(stack.tokens))
      expect(await get(CENTRE, token)).toMatchObject({ status: 200, cache: 'HIT' });
    expect(await get(`${CENTRE}/`)).toMatchObject({ status: 200, cache: 'HIT' });
  });

  it("answers an admin's change on the next call, within a second of the event, then from the cache again", async () => {
    const before = await get();
    await cached(before.body.version);
    expect((await get()).cache).toBe('HIT');

    const listener = await listenForMessages<{ data: { version: number } }>(
      stack.amqpUrl,
      stack.exchange,
      'config.centre.updated.v1',
    );
    try {
      const address = 'Calle Triana 1, 35002 Las Palmas de Gran Canaria';
      const saved = await putCentre(address);
      expect(saved).toMatchObject({ status: 200, body: { version: before.body.version + 1, address } });
      await listener.waitFor((message) => message.body.data.version === saved.body.version, 5000);
      const announced = Date.now();
      const updated = await eventually(
        async () => {
          const answer = await get();
          return answer.body.version === saved.body.version ? answer : undefined;
        },
        1000,
        'the new version served',
      );
      expect(Date.now() - announced).toBeLessThan(1000);
      expect(updated.body.address).toBe(address);
      await cached(saved.body.version);
      expect(await get()).toMatchObject({ cache: 'HIT', body: { version: saved.body.version, address } });
    } finally {
      await listener.close();
    }
  });

  it('never stores what a refused change answered, and passes queries through uncached', async () => {
    const before = await get();
    expect((await putCentre('Calle Falsa 1', stack.tokens.DOCTOR)).status).toBe(403);
    expect(await get(`${CENTRE}?v=1`)).toMatchObject({ status: 200, cache: 'BYPASS' });
    expect((await get()).body).toEqual(before.body);
  });
});

describe('invalidation of the centre profile', () => {
  it('refuses to store an answer older than a version already announced (a change racing a miss)', async () => {
    const { body } = await get();
    const next = body.version + 10;
    await stack.cache.invalidate('centre', 'current', next);
    expect(await stack.cache.store('centre', 'current', JSON.stringify({ ...body, version: next - 1 }))).toBe(
      false,
    );
    expect(await stack.redis.get(stack.cache.entryKey('centre', 'current'))).toBeNull();
    // A late announcement of what is cached already keeps it; a newer one deletes it.
    expect(await stack.cache.store('centre', 'current', JSON.stringify({ ...body, version: next }))).toBe(
      true,
    );
    await stack.cache.invalidate('centre', 'current', next);
    expect(await stack.redis.get(stack.cache.entryKey('centre', 'current'))).not.toBeNull();
    await stack.cache.invalidate('centre', 'current', next + 1);
    expect(await stack.redis.get(stack.cache.entryKey('centre', 'current'))).toBeNull();
  });

  it('keeps the centre and a view called "centre" apart', async () => {
    expect(stack.cache.entryKey('centre', 'current')).not.toBe(stack.cache.entryKey('view', 'centre'));
    const { body } = await get();
    await stack.cache.invalidate('view', 'centre', 2000);
    expect(await stack.cache.store('centre', 'current', JSON.stringify({ ...body, version: 1000 }))).toBe(
      true,
    );
    await stack.cache.invalidate('centre', 'current', 1001);
    expect(await stack.redis.get(stack.cache.entryKey('centre', 'current'))).toBeNull();
  });
});
