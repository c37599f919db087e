import { execFileSync } from 'node:child_process';
import { CENTRE_PROFILE_SEED, type CentreProfile, type ViewConfigView } from '@crm/contracts';
import { eventually, infrastructure } from '@crm/testing';
import {
  startConfigCacheStack,
  type ConfigCacheStack,
} from '../../../gateway/test/support/config-cache-stack';

/**
 * Fault test (run on its own by `npm test`): stops the machine's shared Redis, and always starts
 * it again. The gateway must keep answering `GET /config/view` and `GET /config/centre` correctly
 * from the config service meanwhile, and must not serve a configuration or profile that changed
 * during the outage afterwards (the cache is the gateway's, see gateway/test/support/config-cache-stack.ts).
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

let stack: ConfigCacheStack;

beforeAll(async () => {
  const { redisUrl } = await infrastructure();
  if (!/127\.0\.0\.1:6379|localhost:6379/.test(redisUrl))
    throw new Error('this fault test stops the local Redis on 127.0.0.1:6379');
  await startRedis();
  stack = await startConfigCacheStack('gwcachefault');
}, 60_000);

afterAll(async () => {
  await startRedis();
  await eventually(async () => (stack?.redis.status === 'ready' ? true : undefined), 10_000, 'redis back');
  await stack?.stop();
}, 30_000);

const view = () => `${stack.id.replace(/_/g, '-')}/form`;
const viewPath = () => `/api/v1/config/view?view=${encodeURIComponent(view())}`;
const centrePath = '/api/v1/config/centre';
const getView = () => stack.get<ViewConfigView>(viewPath(), stack.tokens.DOCTOR);
const getCentre = () => stack.get<CentreProfile>(centrePath);

async function put(path: string, body: unknown) {
  const response = await fetch(`${stack.url}${path}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.tokens.ADMIN}` },
    body: JSON.stringify(body),
  });
  expect([200, 201]).toContain(response.status);
}
const putView = (label: string) => put(viewPath(), { fields: [{ name: 'note', label, fieldType: 'TEXT' }] });
const putCentre = (address: string) => put(centrePath, { ...CENTRE_PROFILE_SEED, address });

it('answers correctly from the service while Redis is down, and serves no stale configuration or centre profile once it is back', async () => {
  await putView('Nota v1');
  expect((await getView()).cache).toBe('MISS');
  expect((await getCentre()).cache).toBe('MISS');
  await eventually(async () => ((await getView()).cache === 'HIT' ? true : undefined), 3000, 'view cached');
  await eventually(
    async () => ((await getCentre()).cache === 'HIT' ? true : undefined),
    3000,
    'centre cached',
  );

  stopRedis();
  try {
    await eventually(
      async () => (stack.redis.status !== 'ready' ? true : undefined),
      5000,
      'redis seen down',
    );
    for (let i = 0; i < 5; i++) {
      const answer = await getView();
      expect(answer).toMatchObject({ status: 200, cache: 'BYPASS', body: { view: view(), version: 1 } });
      expect(answer.ms).toBeLessThan(1000);
      expect(await getCentre()).toMatchObject({ status: 200, cache: 'BYPASS', body: { version: 1 } });
    }
    // An admin changes the form and the centre during the outage: the invalidations cannot reach Redis now.
    await putView('Nota v2');
    await putCentre('Calle Durante el Corte 1, 35002 Las Palmas');
    const during = await getView();
    expect(during).toMatchObject({ status: 200, cache: 'BYPASS', body: { version: 2 } });
    expect(during.body.fields[0]!.label).toBe('Nota v2');
    expect(await getCentre()).toMatchObject({ cache: 'BYPASS', body: { version: 2 } });
  } finally {
    await startRedis();
  }

  await eventually(
    async () => (stack.redis.status === 'ready' ? true : undefined),
    10_000,
    'redis reconnected',
  );
  // From now on every answer is version 2, whether it comes from the service or from the cache.
  for (const read of [getView, getCentre]) {
    await eventually(
      async () => {
        const answer = await read();
        expect(answer.status).toBe(200);
        expect(answer.body.version).toBe(2);
        return answer.cache === 'HIT' ? true : undefined;
      },
      5000,
      'served from the cache again',
    );
  }
}, 60_000);
