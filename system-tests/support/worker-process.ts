/**
 * The e-mail worker (services/notifications) as a real child process, so a test can SIGKILL it
 * mid-stream (no graceful shutdown, unacked messages in flight) and start a new one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import amqp from 'amqplib';

const ENTRY = path.resolve(__dirname, '../../services/notifications/src/main.ts');

export class WorkerProcess {
  private child: ChildProcess | undefined;
  /** `event handled` log lines of the current incarnation. */
  handled = 0;
  totalHandled = 0;
  kills = 0;
  starts = 0;

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  start(): void {
    this.handled = 0;
    this.starts += 1;
    const child = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
      cwd: path.resolve(__dirname, '../..'),
      env: { ...this.env, LOG_LEVEL: 'debug', PORT: String(20000 + Math.floor(Math.random() * 20000)) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) {
        if (line.includes('"msg":"event handled"')) {
          this.handled += 1;
          this.totalHandled += 1;
        }
      }
    });
    child.stderr!.on('data', () => undefined);
    this.child = child;
  }

  /** SIGKILL: the process gets no chance to finish, ack or close anything. */
  async kill(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    this.kills += 1;
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
}

/** Resolves once every queue exists (declared and bound by a worker), or throws after the timeout. */
export async function waitForQueues(amqpUrl: string, queues: string[], timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const connection = await amqp.connect(amqpUrl);
  try {
    for (const queue of queues) {
      for (;;) {
        const channel = await connection.createChannel();
        channel.on('error', () => undefined);
        const found = await channel.checkQueue(queue).then(
          () => true,
          () => false,
        );
        await channel.close().catch(() => undefined);
        if (found) break;
        if (Date.now() > deadline) throw new Error(`queue ${queue} not declared within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/** Polls a condition of the test's own state (e.g. a worker's handled count) until it holds or the time is up. */
export async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}
