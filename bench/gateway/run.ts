/**
 * Gateway overhead benchmark (`npm run bench:gateway`).
 *
 * Starts, each in its own process, an upstream service (bench/gateway/upstream.ts) and the real
 * gateway (gateway/src/main.ts, with Redis for rate limits and session checks as in production),
 * then measures with autocannon in this process, 50 connections for ~10 s each after a warm-up:
 *   (a) the upstream directly, (b) the same call through the gateway with a valid JWT, and, for
 *   reference, (c) through a bare Node proxy with no checks (bench/gateway/bare-proxy.ts): the cost
 *   of one more Node process in the path on this machine, which the gateway cannot go below.
 * Targets, on the median of BENCH_ROUNDS rounds: through the gateway ≥ 85 % of the
 * direct throughput, p99 ≤ direct p99 + 5 ms, and ≤ 250 µs of gateway CPU per request, with every
 * check on the path (JWT, ended-session check in Redis, rate limits, identity headers).
 *
 * Env: BENCH_DURATION (s, default 10), BENCH_WARMUP (s, default 3), BENCH_CONNECTIONS (default 50),
 * BENCH_ROUNDS (default 3: direct and gateway runs alternate and the median round counts, which
 * steadies the figures on a busy machine), REDIS_URL (default redis://127.0.0.1:6379),
 * BENCH_PROFILE=1 (the gateway runs with `--cpu-prof`; the top of its profile is printed at the end,
 * the file stays in artifacts/profiles/).
 *
 * BENCH_TRACING=on|off|both (bench/lib/tracing-modes.ts): the gateway traces and exports to a local
 * collector, or not, or both runs one after the other with the figures side by side.
 *
 * Besides latency and throughput it prints the CPU time each process spent per request (from
 * /proc, Linux only) and the load average: on a shared 2-core machine those say whether a bad
 * figure comes from the gateway or from other work competing for the cores.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { busUrlsFor, eventually } from '@crm/testing';
import { mainThreadProfile, profileTop } from '../lib/cpu-profile';
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
  WARMUP,
  type Figures,
} from '../lib/harness';
import { checkCollector, printSummary, runBothModes, tracingEnv, tracingMode } from '../lib/tracing-modes';

const processes = new BenchProcesses();
const PROFILE_DIR = path.join(ROOT, 'artifacts', 'profiles');
const profiling = process.env.BENCH_PROFILE === '1';
const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 3));
const startedAt = Date.now();
const isUp = (url: string) => async () => (await fetch(url)).ok;

async function main(): Promise<void> {
  if (tracingMode() === 'both') {
    process.exitCode = await runBothModes('gateway requests/s');
    return;
  }
  await checkCollector();
  const [upstreamPort, gatewayPort, barePort] = [await freePort(), await freePort(), await freePort()];
  const upstreamUrl = `http://127.0.0.1:${upstreamPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const quiet = { LOG_LEVEL: 'warn', NODE_ENV: 'production' };

  const upstream = processes.start('bench/gateway/upstream.ts', {
    ...quiet,
    PORT: String(upstreamPort),
    ...BENCH_VERIFIER_ENV,
  });
  const gateway = processes.start(
    'gateway/src/main.ts',
    {
      ...quiet,
      NODE_ENV: 'test',
      PORT: String(gatewayPort),
      HOST: '127.0.0.1',
      ...BENCH_VERIFIER_ENV,
      APPOINTMENTS_SERVICE_URL: upstreamUrl,
      // One client address makes all the load: lift the global limit so the bench measures proxying.
      RATE_LIMIT_MAX: '1000000000',
      // Counters of its own, so the bench's burst does not count against a dev gateway's clients.
      RATE_LIMIT_REDIS_PREFIX: `rl:bench:${randomBytes(4).toString('hex')}:`,
      // The gateway's own broker user (it refuses another's), as under npm start.
      AMQP_URL: busUrlsFor(process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672').gateway,
      FRONTENDS_DIR: path.join(ROOT, 'frontends'),
      ...tracingEnv(),
    },
    profiling ? ['--cpu-prof', `--cpu-prof-dir=${PROFILE_DIR}`] : [],
  );
  const bare = processes.start('bench/gateway/bare-proxy.ts', {
    PORT: String(barePort),
    UPSTREAM_URL: upstreamUrl,
  });
  const bareUrl = `http://127.0.0.1:${barePort}`;
  if (profiling) mkdirSync(PROFILE_DIR, { recursive: true });
  await Promise.all([
    eventually(isUp(`${upstreamUrl}/healthz`), 30_000, 'upstream up', { retryOnError: true }),
    eventually(isUp(`${gatewayUrl}/healthz`), 30_000, 'gateway up', { retryOnError: true }),
    eventually(isUp(`${bareUrl}/healthz`), 30_000, 'bare proxy up', { retryOnError: true }),
  ]);

  const token = benchToken({ id: 'bench-user', rol: 'PACIENT' });
  const directTarget = `${upstreamUrl}/dates/currentDate`;
  const gatewayTarget = `${gatewayUrl}/api/v1/dates/currentDate`;
  const bareTarget = `${bareUrl}/dates/currentDate`;

  const check = await fetch(gatewayTarget, { headers: { authorization: `Bearer ${token}` } });
  if (check.status !== 200) throw new Error(`gateway answered ${check.status}: ${await check.text()}`);

  console.log(`warming up ${WARMUP}s each…`);
  await load(directTarget, token, WARMUP);
  await load(gatewayTarget, token, WARMUP);
  await load(bareTarget, token, WARMUP);

  console.log(`measuring ${DURATION}s each at ${CONNECTIONS} connections, ${ROUNDS} round(s)…`);
  const loadBefore = os.loadavg()[0]!;
  // The upstream process serves both runs; the gateway process only the second.
  const pids = { upstream: upstream.pid, gateway: gateway.pid };
  const directRounds: Figures[] = [];
  const gatewayRounds: Figures[] = [];
  const bareRounds: Figures[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    directRounds.push(await measure(directTarget, token, { upstream: pids.upstream }));
    gatewayRounds.push(await measure(gatewayTarget, token, pids));
    bareRounds.push(await measure(bareTarget, token, { upstream: pids.upstream, gateway: bare.pid }));
  }
  const direct = median(directRounds);
  const viaGateway = median(gatewayRounds);
  const viaBare = median(bareRounds);

  const ratio = viaGateway.rps / direct.rps;
  const p99Delta = viaGateway.p99 - direct.p99;
  const row = (name: string, f: Figures) =>
    `| ${name.padEnd(15)} | ${f.rps.toFixed(0).padStart(10)} | ${f.p50.toFixed(1).padStart(8)} | ${f.p99.toFixed(1).padStart(8)} | ${String(f.failed).padStart(14)} | ${cpuCell(f.cpu.upstream, 11)} | ${cpuCell(f.cpu.gateway, 10)} |`;
  console.log('');
  console.log(
    '| target          | requests/s | p50 (ms) | p99 (ms) | non-2xx/errors | upstream µs | gateway µs |',
  );
  console.log(
    '|-----------------|------------|----------|----------|----------------|-------------|------------|',
  );
  console.log(row('direct', direct));
  console.log(row('through gateway', viaGateway));
  console.log(row('bare proxy (ref)', viaBare));
  console.log(
    "(µs = CPU time per request of that process, the proxy's in the gateway column; load average 1 min: " +
      `${loadBefore.toFixed(2)} before, ${os.loadavg()[0]!.toFixed(2)} after, on ${os.cpus().length} cores)`,
  );
  console.log('');
  const throughputOk = ratio >= 0.85;
  const latencyOk = p99Delta <= 5;
  const cpuOk = viaGateway.cpu.gateway !== undefined && viaGateway.cpu.gateway <= 250;
  const clean = direct.failed + viaGateway.failed === 0;
  console.log(
    `throughput ratio: ${(ratio * 100).toFixed(1)} % of direct (target ≥ 85 %) → ${throughputOk ? 'met' : 'NOT met'}`,
  );
  console.log(
    `p99 difference:   ${p99Delta >= 0 ? '+' : ''}${p99Delta.toFixed(1)} ms (target ≤ +5 ms) → ${latencyOk ? 'met' : 'NOT met'}`,
  );
  console.log(
    `gateway CPU:      ${viaGateway.cpu.gateway?.toFixed(0) ?? 'n/a'} µs per request (target ≤ 250 µs) → ${cpuOk ? 'met' : 'NOT met'}`,
  );
  console.log(
    `reference, bare Node proxy with no checks: ${((viaBare.rps / direct.rps) * 100).toFixed(1)} % of direct, p99 ${viaBare.p99 - direct.p99 >= 0 ? '+' : ''}${(viaBare.p99 - direct.p99).toFixed(1)} ms, ${viaBare.cpu.gateway?.toFixed(0) ?? 'n/a'} µs per request`,
  );
  if (!clean)
    console.log('warning: some requests failed or answered non-2xx; the figures are not comparable');
  printSummary({
    'gateway requests/s': viaGateway.rps,
    'gateway p99 (ms)': viaGateway.p99,
    'gateway CPU µs/request': viaGateway.cpu.gateway ?? NaN,
    'direct requests/s': direct.rps,
    'gateway % of direct': ratio * 100,
  });
  process.exitCode = throughputOk && latencyOk && cpuOk && clean ? 0 : 1;
}

/** After the gateway has exited (it writes its profile then): the functions with the most self time. */
function printProfile(): void {
  const file = profiling ? mainThreadProfile(PROFILE_DIR, startedAt) : undefined;
  if (!file) return;
  console.log(`\ngateway CPU profile (${path.relative(ROOT, file)}), self time:\n`);
  console.log('| self | function | where |\n|---|---|---|');
  for (const row of profileTop(file)) console.log(row);
}

process.on('SIGINT', () => {
  void processes.stop().finally(() => process.exit(130));
});

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    await processes.stop();
    printProfile();
  });
