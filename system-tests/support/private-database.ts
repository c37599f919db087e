/**
 * A MongoDB-compatible server of the test's own, on a free port with its data in a temporary
 * directory: `mongod` when it is on PATH, else FerretDB 1.24 on SQLite (the binary
 * scripts/lib/go-tools.ts builds for `npm run infra:up`). The database fault test stops and starts
 * it at will without touching the server every other test (and developer) shares, and without
 * depending on which process started that one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@crm/testing';
import mongoose from 'mongoose';
import { ensureFerretdbBinary } from '../../scripts/lib/go-tools';

async function command(dataDir: string, port: number): Promise<[string, string[]]> {
  if (spawnSync('mongod', ['--version']).status === 0) {
    return ['mongod', ['--dbpath', dataDir, '--port', String(port), '--bind_ip', '127.0.0.1', '--quiet']];
  }
  const binary = await ensureFerretdbBinary(() => undefined);
  const stateDir = path.join(dataDir, 'state');
  fs.mkdirSync(stateDir, { recursive: true });
  return [
    binary,
    [
      '--handler=sqlite',
      `--sqlite-url=file:${dataDir}/`,
      `--listen-addr=127.0.0.1:${port}`,
      `--state-dir=${stateDir}`,
      '--telemetry=disable',
      '--log-level=error',
      '--debug-addr=-',
    ],
  ];
}

export class PrivateDatabase {
  private process: ChildProcess | undefined;

  private constructor(
    readonly url: string,
    private readonly dataDir: string,
    private readonly argv: [string, string[]],
  ) {}

  static async start(): Promise<PrivateDatabase> {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-private-db-'));
    const port = await freePort();
    const database = new PrivateDatabase(
      `mongodb://127.0.0.1:${port}`,
      dataDir,
      await command(dataDir, port),
    );
    await database.resume();
    return database;
  }

  /** Starts the server again on the same port and data; resolves once it answers a ping. */
  async resume(timeoutMs = 60_000): Promise<void> {
    if (this.process && this.process.exitCode === null) return;
    const [binary, args] = this.argv;
    this.process = spawn(binary, args, { stdio: 'ignore' });
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        const connection = await mongoose
          .createConnection(this.url, { serverSelectionTimeoutMS: 500 })
          .asPromise();
        await connection.db!.admin().ping();
        await connection.close();
        return;
      } catch (error) {
        if (this.process.exitCode !== null) throw new Error(`${binary} exited with ${this.process.exitCode}`);
        if (Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  }

  /** Stops the server (SIGTERM) and waits until it has exited. */
  async halt(): Promise<void> {
    const running = this.process;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const killTimer = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(killTimer);
  }

  async remove(): Promise<void> {
    await this.halt();
    fs.rmSync(this.dataDir, { recursive: true, force: true });
  }
}
