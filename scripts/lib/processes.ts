import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDir, infraPaths } from './paths';
import { sleep } from './probes';

/** How infra-down stops a component that infra-up started. */
export type StopMethod =
  | { kind: 'signal'; match: string } // SIGTERM the pid (its /proc cmdline must contain `match`)
  | { kind: 'command'; command: string; args: string[] }; // e.g. rabbitmqctl stop

export interface RunMeta {
  name: string;
  pid: number | null;
  startedAt: string;
  description: string;
  stop: StopMethod;
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function cmdlineOf(pid: number): string | null {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return null;
  }
}

/** Finds an executable on PATH (plus extra candidate absolute paths). */
export function which(command: string, extra: string[] = []): string | null {
  const dirs = (process.env.PATH ?? '').split(path.delimiter).filter(Boolean);
  const candidates = [...dirs.map((d) => path.join(d, command)), ...extra];
  for (const candidate of candidates) {
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not there
    }
  }
  return null;
}

export function writeRunMeta(meta: RunMeta): void {
  ensureDir(infraPaths.run());
  if (meta.pid !== null) fs.writeFileSync(infraPaths.pid(meta.name), `${meta.pid}\n`);
  fs.writeFileSync(infraPaths.meta(meta.name), JSON.stringify(meta, null, 2) + '\n');
}

export function readRunMeta(name: string): RunMeta | null {
  try {
    return JSON.parse(fs.readFileSync(infraPaths.meta(name), 'utf8')) as RunMeta;
  } catch {
    // A bare pid file (no meta) is still stoppable by signal.
    try {
      const pid = Number(fs.readFileSync(infraPaths.pid(name), 'utf8').trim());
      if (!Number.isInteger(pid) || pid <= 0) return null;
      return { name, pid, startedAt: '', description: name, stop: { kind: 'signal', match: name } };
    } catch {
      return null;
    }
  }
}

export function clearRunMeta(name: string): void {
  fs.rmSync(infraPaths.pid(name), { force: true });
  fs.rmSync(infraPaths.meta(name), { force: true });
}

/** Names of components that have run files (started by infra-up and not yet stopped). */
export function listRunMeta(): string[] {
  try {
    return fs
      .readdirSync(infraPaths.run())
      .filter((f) => f.endsWith('.json') || f.endsWith('.pid'))
      .map((f) => f.replace(/\.(json|pid)$/, ''))
      .filter((n, i, all) => all.indexOf(n) === i);
  } catch {
    return [];
  }
}

function openLog(name: string): number {
  ensureDir(infraPaths.logs());
  const fd = fs.openSync(infraPaths.log(name), 'a');
  fs.writeSync(fd, `\n=== ${new Date().toISOString()} ===\n`);
  return fd;
}

export interface DetachedProcess {
  pid: number;
  /** Set when the process has exited (so a readiness wait can stop early). */
  exited: () => string | null;
}

/**
 * Starts a long-running process in its own session (so Ctrl-C in the terminal does not reach it),
 * stdout/stderr appended to .infra/logs/<name>.log, and records its pid file.
 */
export function spawnDetached(
  name: string,
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; description: string; match?: string },
): DetachedProcess {
  const fd = openLog(name);
  fs.writeSync(fd, `$ ${command} ${args.join(' ')}\n`);
  const child = spawn(command, args, {
    cwd: opts.cwd,
    env: opts.env ?? process.env,
    detached: true,
    stdio: ['ignore', fd, fd],
  });
  fs.closeSync(fd);
  let exitReason: string | null = null;
  child.on('error', (err) => {
    exitReason = `could not run ${command}: ${err.message}`;
  });
  child.on('exit', (code, signal) => {
    exitReason = `${path.basename(command)} exited (${signal ?? `code ${code}`}); last log lines:\n${tailLog(name)}`;
  });
  child.unref();
  if (child.pid === undefined) throw new Error(`could not start ${command}`);
  writeRunMeta({
    name,
    pid: child.pid,
    startedAt: new Date().toISOString(),
    description: opts.description,
    stop: { kind: 'signal', match: opts.match ?? path.basename(command) },
  });
  return { pid: child.pid, exited: () => exitReason };
}

export interface CommandResult {
  code: number | null;
  output: string;
}

/**
 * Runs a short command to completion, output appended to .infra/logs/<logName>.log (files, not
 * pipes: commands such as `rabbitmq-server -detached` leave daemons holding their stdout).
 * The command runs in its own session so Ctrl-C does not interrupt a half-done start.
 */
export function runLogged(
  logName: string,
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<CommandResult> {
  const fd = openLog(logName);
  const start = fs.fstatSync(fd).size;
  fs.writeSync(fd, `$ ${command} ${args.join(' ')}\n`);
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: opts.cwd,
      env: opts.env ?? process.env,
      detached: true,
      stdio: ['ignore', fd, fd],
    });
    let timer: NodeJS.Timeout | undefined;
    if (opts.timeoutMs) {
      timer = setTimeout(() => {
        try {
          if (child.pid) process.kill(-child.pid, 'SIGKILL');
        } catch {
          // gone
        }
      }, opts.timeoutMs);
    }
    const finish = (code: number | null, extra = ''): void => {
      if (timer) clearTimeout(timer);
      fs.closeSync(fd);
      let output = '';
      try {
        const buf = fs.readFileSync(infraPaths.log(logName));
        output = buf.subarray(start).toString('utf8');
      } catch {
        // ignore
      }
      resolve({ code, output: output + extra });
    };
    child.once('error', (err) => finish(null, `\n${err.message}`));
    child.once('exit', (code, signal) => finish(code, signal ? `\nkilled by ${signal}` : ''));
  });
}

/** Short synchronous command with captured output (for quick queries, never for daemons). */
export function runQuick(command: string, args: string[], timeoutMs = 15000): CommandResult {
  const r = spawnSync(command, args, {
    encoding: 'utf8',
    timeout: timeoutMs,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return { code: r.status, output: `${r.stdout ?? ''}${r.stderr ?? ''}${r.error ? r.error.message : ''}` };
}

export function tailLog(name: string, lines = 12): string {
  try {
    const text = fs.readFileSync(infraPaths.log(name), 'utf8');
    return text
      .trimEnd()
      .split('\n')
      .slice(-lines)
      .map((l) => `    ${l}`)
      .join('\n');
  } catch {
    return '    (no log)';
  }
}

/**
 * Stops a component that infra-up started, using its run files. Never touches a process whose
 * command line does not match what was started (pid reuse). Returns a one-line outcome.
 */
export async function stopComponent(name: string): Promise<string> {
  const meta = readRunMeta(name);
  if (!meta) return 'not started by infra-up';
  try {
    if (meta.stop.kind === 'command') {
      if (meta.pid !== null && !isAlive(meta.pid)) return 'already stopped';
      const r = await runLogged(name, meta.stop.command, meta.stop.args, { timeoutMs: 120_000 });
      if (r.code !== 0) return `failed: ${meta.stop.command} ${meta.stop.args.join(' ')} exited ${r.code}`;
      return `stopped (${meta.stop.command} ${meta.stop.args.join(' ')})`;
    }
    const pid = meta.pid;
    if (pid === null || !isAlive(pid)) return 'already stopped';
    const cmdline = cmdlineOf(pid);
    if (cmdline !== null && !cmdline.includes(meta.stop.match)) {
      return `pid ${pid} is now another program (${cmdline.slice(0, 60)}); left alone`;
    }
    process.kill(pid, 'SIGTERM');
    const deadline = Date.now() + 10_000;
    while (isAlive(pid) && Date.now() < deadline) await sleep(100);
    if (isAlive(pid)) {
      process.kill(pid, 'SIGKILL');
      await sleep(200);
      return `killed (pid ${pid} ignored SIGTERM for 10 s)`;
    }
    return `stopped (pid ${pid})`;
  } finally {
    clearRunMeta(name);
  }
}
