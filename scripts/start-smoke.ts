/**
 * npm run test:start — the README's first command, run as written: `npm start` in the background,
 * until the gateway on http://127.0.0.1:8080 reaches every service; then the product journey of the
 * compose checks through it (sign-up to access trail), then Ctrl-C, and every process must be gone.
 * CI runs it after the tests (the front ends are built by then).
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './lib/paths';
import { sleep } from './lib/probes';

const GATEWAY = 'http://127.0.0.1:8080';
const READY_WITHIN_MS = 240_000;
const STOP_WITHIN_MS = 30_000;

interface Readiness {
  checks?: { upstreams?: Record<string, string> };
}

async function everyUpstreamUp(): Promise<string> {
  try {
    const answer = await fetch(`${GATEWAY}/readyz`);
    const body = (await answer.json()) as Readiness;
    const upstreams = Object.entries(body.checks?.upstreams ?? {});
    const down = upstreams.filter(([, state]) => state !== 'up').map(([name]) => name);
    return upstreams.length > 0 && down.length === 0 ? '' : `waiting for ${down.join(', ') || 'the gateway'}`;
  } catch {
    return 'waiting for the gateway';
  }
}

async function main(): Promise<number> {
  fs.mkdirSync(path.join(REPO_ROOT, 'artifacts'), { recursive: true });
  const logFile = path.join(REPO_ROOT, 'artifacts', 'npm-start.log');
  const log = fs.openSync(logFile, 'w');
  const started = Date.now();
  // Rate-limit counters of its own: every run signs up from 127.0.0.1, like the earlier runs and
  // npm start sessions on this machine, whose counters the shared Redis keeps for 15 minutes.
  const env = { ...process.env, RATE_LIMIT_REDIS_PREFIX: `rl:start-smoke:${started}:` };
  const product = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    detached: true,
    stdio: ['ignore', log, log],
    env,
  });
  const stop = (signal: NodeJS.Signals): void => {
    try {
      process.kill(-product.pid!, signal);
    } catch {
      // already gone
    }
  };
  let exited = false;
  product.once('exit', () => (exited = true));
  try {
    let waiting = 'waiting for the gateway';
    while (waiting && Date.now() - started < READY_WITHIN_MS && !exited) {
      await sleep(2000);
      waiting = await everyUpstreamUp();
    }
    if (waiting) throw new Error(`npm start: ${exited ? 'exited' : waiting} (log: artifacts/npm-start.log)`);
    console.log(
      `npm start: every service reachable through ${GATEWAY} after ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const journey = spawnSync('npx', ['tsx', 'scripts/compose/checks/run-local.ts', 'journey'], {
      cwd: REPO_ROOT,
      stdio: 'inherit',
    });
    if (journey.status !== 0) throw new Error('the product journey through npm start failed');
  } catch (error) {
    console.log(error instanceof Error ? error.message : String(error));
    console.log(fs.readFileSync(logFile, 'utf8').split('\n').slice(-40).join('\n'));
    return 1;
  } finally {
    // Ctrl-C, as a person stops it; whatever is still there after the limit is killed (and a failure).
    stop('SIGINT');
    const stopping = Date.now();
    while (!exited && Date.now() - stopping < STOP_WITHIN_MS) await sleep(250);
    if (!exited) {
      stop('SIGKILL');
      console.log(`npm start: still running ${STOP_WITHIN_MS / 1000} s after Ctrl-C; killed`);
      process.exitCode = 1;
    } else console.log(`npm start: stopped ${((Date.now() - stopping) / 1000).toFixed(1)} s after Ctrl-C`);
  }
  return process.exitCode === 1 ? 1 : 0;
}

main().then((code) => process.exit(code));
