/**
 * View-configuration cache benchmark (`npm run bench:config-cache`).
 *
 * Starts, each in its own process, the real config service (services/config/src/main.ts, on its
 * own database, with the seeded configuration) and two gateways in front of it
 * (bench/config-cache/gateway.ts): one with the Redis cache of `GET /config/view`, one without
 * (every call proxied to the config service and its database). Then measures with autocannon in
 * this process `GET /api/v1/config/view?view=doctor/appointments/:id` with a DOCTOR token,
 * 50 connections for ~10 s each after a warm-up: (a) uncached, (b) cached.
 * Target: cached ≥ 3× the uncached throughput.
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 50),
 * BENCH_ROUNDS (default 1; with more, the runs alternate and the median round counts), MONGO_URL,
 * AMQP_URL, REDIS_URL (local defaults).
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import mongoose from 'mongoose';
import { RECORDS_VIEW } from '@crm/contracts';
import { busUrlsFor, deleteQueues, eventually, prepareBus } from '@crm/testing';
import {
  benchToken,
  BENCH_VERIFIER_ENV,
  BenchProcesses,
  CONNECTIONS,
  cpuCell,
  DURATION,
  freePort,
  load,
  measure,
  median,
  ROOT,
  ROUNDS,
  WARMUP,
  type Figures,
} from '../lib/harness';

const MONGO_URL = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';
const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const RUN = `bench_config_${randomBytes(3).toString('hex')}`;
const DATABASE = `${RUN}_config`;
const EXCHANGE = `${RUN}.events`;
const CACHE_QUEUE = `${RUN}.gateway.view-cache`;
const processes = new BenchProcesses();

async function cleanUp(): Promise<void> {
  await processes.stop();
  const connection = await mongoose.createConnection(MONGO_URL).asPromise();
  await connection
    .useDb(DATABASE)
    .dropDatabase()
    .catch(() => undefined);
  await connection.close();
  await deleteQueues(AMQP_URL, [CACHE_QUEUE, `${RUN}.config.sessions`, `${RUN}.audit.entries`], [EXCHANGE]);
  const redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await redis.connect();
    for (const pattern of [`${RUN}:view-config:*`, `rl:${RUN}:*`]) {
      for await (const keys of redis.scanStream({ match: pattern, count: 200 }) as AsyncIterable<string[]>)
        if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
}

async function main(): Promise<void> {
  const [servicePort, cachedPort, uncachedPort] = [await freePort(), await freePort(), await freePort()];
  const serviceUrl = `http://127.0.0.1:${servicePort}`;
  const quiet = { LOG_LEVEL: 'warn', NODE_ENV: 'test', ...BENCH_VERIFIER_ENV };
  const shared = { ...quiet, MONGO_URL, REDIS_URL, EVENTS_EXCHANGE: EXCHANGE, QUEUE_PREFIX: RUN };
  // Each on its own broker user; the exchange and the audit queue are the broker definitions' (prepareBus).
  const busUrls = busUrlsFor(AMQP_URL);
  await prepareBus(AMQP_URL, { exchange: EXCHANGE, queuePrefix: RUN });

  const service = processes.start('services/config/src/main.ts', {
    ...shared,
    AMQP_URL: busUrls.config,
    PORT: String(servicePort),
    MONGO_DB: DATABASE,
  });
  const gatewayEnv = (port: number, cache: 'on' | 'off') => ({
    ...shared,
    AMQP_URL: busUrls.gateway,
    PORT: String(port),
    HOST: '127.0.0.1',
    CONFIG_SERVICE_URL: serviceUrl,
    // One client address makes all the load: lift the global limit so the bench measures the path.
    RATE_LIMIT_MAX: '1000000000',
    RATE_LIMIT_REDIS_PREFIX: `rl:${RUN}:${cache}:`,
    VIEW_CONFIG_CACHE: cache,
    VIEW_CONFIG_CACHE_PREFIX: `${RUN}:view-config:`,
    FRONTENDS_DIR: path.join(ROOT, 'frontends'),
  });
  const cachedGateway = processes.start('bench/config-cache/gateway.ts', gatewayEnv(cachedPort, 'on'));
  const uncachedGateway = processes.start('bench/config-cache/gateway.ts', gatewayEnv(uncachedPort, 'off'));

  const token = benchToken({ id: '0123456789abcdef01234567', rol: 'DOCTOR' });
  const target = (port: number) =>
    `http://127.0.0.1:${port}/api/v1/config/view?view=${encodeURIComponent(RECORDS_VIEW)}`;
  const call = (port: number) => fetch(target(port), { headers: { authorization: `Bearer ${token}` } });

  await eventually(async () => (await fetch(`${serviceUrl}/readyz`)).ok, 30_000, 'config service ready', {
    retryOnError: true,
  });
  await eventually(
    async () => (await call(uncachedPort)).status === 200,
    30_000,
    'uncached gateway answering',
    { retryOnError: true },
  );
  // The cached gateway serves from Redis once its invalidation consumer runs and its first flush is done.
  await eventually(
    async () => {
      const response = await call(cachedPort);
      await response.arrayBuffer();
      return response.headers.get('x-cache') === 'HIT';
    },
    30_000,
    'cached gateway answering from Redis',
    { retryOnError: true },
  );
  const [cachedBody, uncachedBody] = await Promise.all([
    call(cachedPort).then((r) => r.text()),
    call(uncachedPort).then((r) => r.text()),
  ]);
  if (cachedBody !== uncachedBody) throw new Error('the cached and uncached answers differ');
  console.log(`answer: ${Buffer.byteLength(cachedBody)} bytes (the seeded form of ${RECORDS_VIEW})`);

  console.log(`warming up ${WARMUP}s each…`);
  await load(target(uncachedPort), token, WARMUP);
  await load(target(cachedPort), token, WARMUP);

  console.log(`measuring ${DURATION}s each at ${CONNECTIONS} connections, ${ROUNDS} round(s)…`);
  const loadBefore = os.loadavg()[0]!;
  const uncachedRounds: Figures[] = [];
  const cachedRounds: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    uncachedRounds.push(
      await measure(target(uncachedPort), token, { gateway: uncachedGateway.pid, service: service.pid }),
    );
    cachedRounds.push(
      await measure(target(cachedPort), token, { gateway: cachedGateway.pid, service: service.pid }),
    );
  }
  const uncached = median(uncachedRounds);
  const cached = median(cachedRounds);

  const row = (name: string, f: Figures) =>
    `| ${name.padEnd(9)} | ${f.rps.toFixed(0).padStart(10)} | ${f.p50.toFixed(1).padStart(8)} | ${f.p99.toFixed(1).padStart(8)} | ${String(f.failed).padStart(14)} | ${cpuCell(f.cpu.gateway, 10)} | ${cpuCell(f.cpu.service, 10)} |`;
  console.log('');
  console.log('| target    | requests/s | p50 (ms) | p99 (ms) | non-2xx/errors | gateway µs | config µs  |');
  console.log('|-----------|------------|----------|----------|----------------|------------|------------|');
  console.log(row('uncached', uncached));
  console.log(row('cached', cached));
  console.log(
    `(µs = CPU time per request of that process; load average 1 min: ${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after, on ${os.cpus().length} cores)`,
  );
  console.log('');
  const ratio = cached.rps / uncached.rps;
  const met = ratio >= 3;
  console.log(
    `throughput ratio: cached = ${ratio.toFixed(2)} × uncached (target ≥ 3×) → ${met ? 'met' : 'NOT met'}`,
  );
  console.log(
    `p50: ${uncached.p50.toFixed(1)} → ${cached.p50.toFixed(1)} ms; p99: ${uncached.p99.toFixed(1)} → ${cached.p99.toFixed(1)} ms`,
  );
  const clean = uncached.failed + cached.failed === 0;
  if (!clean)
    console.log('warning: some requests failed or answered non-2xx; the figures are not comparable');
  process.exitCode = met && clean ? 0 : 1;
}

process.on('SIGINT', () => {
  void cleanUp().finally(() => process.exit(130));
});

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(() => cleanUp().catch((error) => console.error('clean-up failed:', error)));
