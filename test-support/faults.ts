/**
 * Stopping and starting shared infrastructure for the fault tests (`*.fault.test.ts`, run serially in
 * `npm test`'s fault phase), the system tests' and the packages' and services' alike. Every stop has a start that callers put in `finally` / `afterAll`; starts are
 * idempotent, so calling them when nothing is down is harmless. Other test runs may share this
 * infrastructure: keep outages short.
 */
import { execFile } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';
import { restartRabbitNode } from '../scripts/lib/rabbitmq-node';

const run = promisify(execFile);

/**
 * Async, so the in-process services keep running while the CLI works. `start_app` is retried, and a
 * node whose application still will not start (Mnesia "overloaded" after many cycles) is replaced by a
 * fresh one: the broker must never be left stopped for the tests, or the CI run, after this one.
 */
export async function rabbitmqctl(command: 'stop_app' | 'start_app'): Promise<void> {
  if (command === 'stop_app') {
    await run('rabbitmqctl', ['stop_app'], { timeout: 90_000 });
    return;
  }
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      await run('rabbitmqctl', ['start_app'], { timeout: 60_000, killSignal: 'SIGKILL' });
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 3000));
    }
  }
  const reason = await restartRabbitNode();
  if (reason !== null) throw new Error(`RabbitMQ did not come back: ${reason}`);
}

export function portOpen(port: number, host = '127.0.0.1', timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function ensureBrokerRunning(): Promise<void> {
  if (!(await portOpen(5672))) await rabbitmqctl('start_app');
}

/** Runs `fn` with a per-request time limit; a hang becomes status 0 with the time it took. */
export async function timed<T extends { status: number }>(
  fn: (signal: AbortSignal) => Promise<T>,
  limitMs = 5000,
): Promise<{ status: number; ms: number; result?: T }> {
  const started = Date.now();
  try {
    const result = await fn(AbortSignal.timeout(limitMs));
    return { status: result.status, ms: Date.now() - started, result };
  } catch {
    return { status: 0, ms: Date.now() - started };
  }
}
