/**
 * The e-mail worker (services/notifications) as a real child process, so a test can SIGKILL it
 * mid-stream (no graceful shutdown, unacked messages in flight) and start a new one.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

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
