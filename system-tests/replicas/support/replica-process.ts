/**
 * One replica of a service as its own Node process (its real `src/main.ts` under tsx), the way a
 * container runs it: own connections, own outbox relay, own consumers. In-process copies would share
 * the event bus's process-wide guards and hide exactly the races replicas have.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { freePort } from '@crm/testing';

const REPO_ROOT = path.resolve(__dirname, '../../..');
const OUTPUT_LINES_KEPT = 40;

export interface ReplicaProcess {
  name: string;
  url: string;
  /** SIGTERM (graceful shutdown, as `docker stop` / Kubernetes do), SIGKILL after the grace time. */
  stop(): Promise<void>;
}

function definedOnly(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

async function waitReady(url: string, child: ChildProcess, output: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`replica exited with ${child.exitCode}:\n${output.join('')}`);
    }
    const ok = await fetch(`${url}/readyz`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    if (Date.now() > deadline)
      throw new Error(`${url}/readyz not ready in ${timeoutMs} ms:\n${output.join('')}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Starts `services/<service>/src/main.ts` with the given environment and waits for its /readyz. */
export async function startReplica(
  name: string,
  service: string,
  env: NodeJS.ProcessEnv,
  timeoutMs = 45_000,
): Promise<ReplicaProcess> {
  const port = await freePort();
  const output: string[] = [];
  const child = spawn(process.execPath, ['--import', 'tsx', `services/${service}/src/main.ts`], {
    cwd: REPO_ROOT,
    env: definedOnly({ ...env, PORT: String(port) }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString());
    if (output.length > OUTPUT_LINES_KEPT) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    await waitReady(url, child, output, timeoutMs);
  } catch (error) {
    await stop();
    throw error;
  }
  return { name, url, stop };
}
