import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';
import { freePort } from '@crm/testing';

/** Is a `redis-server` binary on PATH (local infrastructure)? Containers-only setups have none. */
export function hasRedisServerBinary(): boolean {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.setTimeout(300);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/**
 * A Redis of this test's own, so stopping it to simulate an outage does not disturb the other test
 * files that share the machine's Redis at the same time. It can be stopped and started again on the
 * same port, like a real Redis restart.
 */
export class PrivateRedis {
  private process?: ChildProcess;

  private constructor(readonly port: number) {}

  static async start(): Promise<PrivateRedis> {
    const redis = new PrivateRedis(await freePort());
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    this.process = spawn(
      'redis-server',
      ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    const deadline = Date.now() + 5000;
    while (!(await answersPing(this.port))) {
      if (Date.now() > deadline) throw new Error(`private redis did not start on port ${this.port}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Like `redis-cli shutdown nosave`: the server goes away and the port refuses connections. */
  async stop(): Promise<void> {
    const child = this.process;
    if (!child || child.exitCode !== null) return;
    this.process = undefined;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  }
}
