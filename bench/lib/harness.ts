/**
 * What the autocannon benchmarks share: their settings from the environment, child processes run
 * with tsx, and one measured run with the CPU time each process spent on it (readiness is polled
 * with `@crm/testing`'s `eventually`).
 */
import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { cpuMicros } from './process-cpu';
export { freePort } from '@crm/testing';

export const ROOT = path.resolve(__dirname, '../..');
export const DURATION = Number(process.env.BENCH_DURATION ?? 10);
export const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
export const ROUNDS = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 1));
/**
 * The processes verify tokens signed with the test key (no auth service runs in a benchmark): they
 * get its public half as `JWT_PUBLIC_KEYS`, and `benchToken` signs with it.
 */
export { TEST_VERIFIER_ENV as BENCH_VERIFIER_ENV, mintToken as benchToken } from '@crm/testing';

/** Processes started for one benchmark; any of them dying before `stop()` ends the benchmark. */
export class BenchProcesses {
  private readonly children: ChildProcess[] = [];
  private stopping = false;

  /** `nodeArgs`: extra Node options, e.g. `--cpu-prof` for a profile written when it exits. */
  start(script: string, env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
    const child = fork(path.join(ROOT, script), [], {
      cwd: ROOT,
      env: { ...process.env, ...env },
      execArgv: [...nodeArgs, '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.children.push(child);
    child.once('exit', (code) => {
      if (code && !this.stopping) {
        console.error(`${script} exited with code ${code}`);
        process.exit(1);
      }
    });
    return child;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    const running = this.children.filter((child) => child.exitCode === null);
    for (const child of running) child.kill('SIGTERM');
    await Promise.all(running.map((child) => new Promise((resolve) => child.once('exit', resolve))));
  }
}

export function load(url: string, token: string, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: { authorization: `Bearer ${token}` },
  });
}

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, errors and timeouts. */
  failed: number;
  /** CPU µs per successful request of each named process during the run. */
  cpu: Record<string, number | undefined>;
}

export async function measure(
  url: string,
  token: string,
  pids: Record<string, number | undefined>,
): Promise<Figures> {
  const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMicros(pid)]));
  const result = await load(url, token, DURATION);
  const cpu = Object.fromEntries(
    Object.entries(pids).map(([name, pid]) => {
      const now = cpuMicros(pid);
      const then = before[name];
      const perRequest =
        now === undefined || then === undefined || result['2xx'] === 0
          ? undefined
          : (now - then) / result['2xx'];
      return [name, perRequest];
    }),
  );
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failed: result.non2xx + result.errors + result.timeouts,
    cpu,
  };
}

/** The round with the median throughput, so one burst of outside load does not decide the result. */
export function median(rounds: Figures[]): Figures {
  return [...rounds].sort((a, b) => a.rps - b.rps)[Math.floor(rounds.length / 2)]!;
}

/** A table cell with a CPU figure. */
export function cpuCell(value: number | undefined, width: number): string {
  return (value === undefined ? 'n/a' : value.toFixed(0)).padStart(width);
}
