/**
 * npm start — runs the whole product as local processes:
 *   1. brings up the local infrastructure (scripts/lib/infra.ts) and Jaeger, to which every process
 *      exports its traces (OTEL_EXPORTER_OTLP_ENDPOINT; OTEL_SDK_DISABLED=true: no traces),
 *   2. builds the frontends (workspaces under frontends/ with a build script),
 *   3. runs every workspace under services/ and gateway/ that has a start script, together, with
 *      prefixed coloured logs, and the development defaults of scripts/lib/dev-env.ts applied to
 *      variables that are not already set (PORT is left to each workspace's own config); each
 *      connects to RabbitMQ as its own broker user (AMQP_URL of its own).
 * Ctrl-C / SIGTERM stops the children, then the infrastructure processes this run started.
 *
 *   npm start -- auth gateway   runs only the named workspaces (short name, package name or dir)
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { concurrently, type ConcurrentlyCommandInput } from 'concurrently';
import { brokerPasswordVariable, BUS_PARTICIPANTS, isBusParticipant } from '@crm/contracts';
import { applyDevEnv } from './lib/dev-env';
import { ensureInfrastructure, InfrastructureError, stopInfrastructure } from './lib/infra';
import { deployableAmqpUrls } from './lib/infra/broker-users';
import { JAEGER_OTLP_ENDPOINT, JAEGER_UI_URL } from './lib/infra/jaeger';
import { REPO_ROOT } from './lib/paths';

interface Workspace {
  dir: string; // relative to the repo root
  name: string;
  scripts: Record<string, string>;
}

const COLOURS = ['cyan', 'magenta', 'green', 'yellow', 'blue', 'red', 'white', 'gray'];

function log(message: string): void {
  console.log(`start-all: ${message}`);
}

function readWorkspace(dir: string): Workspace | null {
  try {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, dir, 'package.json'), 'utf8')) as {
      name?: string;
      scripts?: Record<string, string>;
    };
    return { dir, name: pkg.name ?? dir, scripts: pkg.scripts ?? {} };
  } catch {
    return null;
  }
}

function workspacesUnder(parent: string): Workspace[] {
  const abs = path.join(REPO_ROOT, parent);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => readWorkspace(path.posix.join(parent, d.name)))
    .filter((w): w is Workspace => w !== null)
    .sort((a, b) => a.dir.localeCompare(b.dir));
}

/** Short display name: "@crm/auth" -> "auth". */
function shortName(w: Workspace): string {
  return w.name.replace(/^@[^/]+\//, '');
}

function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: REPO_ROOT, stdio: 'inherit', env: process.env });
    child.once('error', () => resolve(127));
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 128 : 1)));
  });
}

let shuttingDown = false;
let started: string[] = [];
let wakeIdle: (() => void) | null = null;
let forceKill: (() => void) | null = null;

async function stopStartedInfra(): Promise<void> {
  if (started.length === 0) return;
  log(`stopping the infrastructure this run started: ${started.join(', ')}`);
  const names = started;
  started = [];
  await stopInfrastructure(names);
}

async function finish(code: number): Promise<never> {
  await stopStartedInfra().catch((err: unknown) => log(`could not stop infrastructure: ${String(err)}`));
  process.exit(code);
}

function onSignal(signal: NodeJS.Signals): void {
  if (shuttingDown) {
    // Second Ctrl-C: stop waiting for graceful shutdown.
    if (forceKill) forceKill();
    else process.exit(130);
    return;
  }
  shuttingDown = true;
  log(`${signal} received, stopping…`);
  wakeIdle?.();
}

async function main(): Promise<void> {
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('SIGHUP', onSignal);

  applyDevEnv(process.env);

  // 1. Infrastructure, and Jaeger for traces unless an OTLP endpoint is set or OTEL_SDK_DISABLED=true
  const tracesOff = process.env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  const ownCollector = !tracesOff && !process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  let reports: Awaited<ReturnType<typeof ensureInfrastructure>>['reports'] = [];
  try {
    ({ started, reports } = await ensureInfrastructure({ jaeger: ownCollector }));
  } catch (err) {
    if (err instanceof InfrastructureError) {
      started = err.started;
      log(`FAILED: ${err.message}`);
    } else {
      log(`FAILED: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    }
    return finish(1);
  }
  if (shuttingDown) return finish(0);
  if (ownCollector) {
    const jaeger = reports.find((r) => r.component === 'jaeger');
    if (jaeger && jaeger.status !== 'failed') {
      process.env.OTEL_EXPORTER_OTLP_ENDPOINT = JAEGER_OTLP_ENDPOINT;
      log(`traces: every process exports to Jaeger; follow a request at ${JAEGER_UI_URL}`);
    } else {
      log('traces: off (Jaeger is not available)');
    }
  }

  // 2. Frontends
  const frontends = workspacesUnder('frontends').filter((w) => w.scripts.build);
  if (frontends.length === 0) {
    log('no frontends with a build script yet; skipping the frontend build');
  } else {
    log(`building frontends: ${frontends.map(shortName).join(', ')}`);
    const code = await run('npm', [
      'run',
      'build',
      '--if-present',
      ...frontends.map((w) => `--workspace=${w.dir}`),
    ]);
    if (code !== 0) {
      log(`frontend build failed (exit ${code})`);
      return finish(1);
    }
  }
  if (shuttingDown) return finish(0);

  // 3. Services and gateway
  let apps = [...workspacesUnder('services'), readWorkspace('gateway')].filter(
    (w): w is Workspace => w !== null && Boolean(w.scripts.start),
  );
  const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
  if (only.length > 0) {
    const known = (w: Workspace): string[] => [shortName(w), w.name, w.dir, path.basename(w.dir)];
    const unknown = only.filter((o) => !apps.some((w) => known(w).includes(o)));
    if (unknown.length > 0) {
      log(`unknown workspace(s): ${unknown.join(', ')}; known: ${apps.map(shortName).join(', ')}`);
      return finish(2);
    }
    apps = apps.filter((w) => known(w).some((k) => only.includes(k)));
  }
  if (apps.length === 0) {
    log('no service or gateway workspace has a start script yet; infrastructure is up. Ctrl-C to stop.');
    // A pending promise alone does not keep Node alive: hold a timer until a signal arrives.
    const keepAlive = setInterval(() => undefined, 60_000);
    await new Promise<void>((resolve) => {
      wakeIdle = resolve;
      if (shuttingDown) resolve();
    });
    clearInterval(keepAlive);
    return finish(0);
  }

  // Each deployable connects to RabbitMQ as its own user (created by infra-up) and sees no other
  // deployable's broker password: AMQP_URL of its own, the passwords taken out of the environment.
  const amqpUrls = deployableAmqpUrls(process.env.AMQP_URL!, process.env);
  for (const participant of BUS_PARTICIPANTS) delete process.env[brokerPasswordVariable(participant)];
  const commands: ConcurrentlyCommandInput[] = apps.map((w, i) => {
    // The broker user is named after the folder (services/audit → audit), not the package
    // (@crm/audit-service), as in docker compose and the test harness.
    const participant = path.basename(w.dir);
    return {
      command: 'npm run --silent start',
      name: shortName(w),
      cwd: path.join(REPO_ROOT, w.dir),
      prefixColor: COLOURS[i % COLOURS.length],
      ...(isBusParticipant(participant) ? { env: { AMQP_URL: amqpUrls[participant] } } : {}),
    };
  });
  // Logs: coloured, readable lines when a person watches this terminal; JSON lines otherwise
  // (redirected to a file, CI, test:start). LOG_FORMAT=json or =pretty chooses either way.
  if (process.stdout.isTTY && !process.env.LOG_FORMAT) process.env.LOG_FORMAT = 'pretty';
  log(`starting ${apps.map(shortName).join(', ')}`);
  const { result, commands: running } = concurrently(commands, {
    prefix: 'name',
    padPrefix: true,
    handleInput: false,
    killOthersOn: [],
    restartTries: 0,
    cwd: REPO_ROOT,
  });
  forceKill = () => {
    log('forcing children to stop');
    running.forEach((c) => c.kill('SIGKILL'));
  };
  // concurrently forwards SIGINT/SIGTERM/SIGHUP to the children itself; make sure it cannot hang.
  const watchdog = setInterval(() => {
    if (shuttingDown) {
      clearInterval(watchdog);
      setTimeout(() => forceKill?.(), 15_000).unref();
    }
  }, 200);
  watchdog.unref();

  let failed = false;
  try {
    await result;
  } catch (events) {
    failed = !shuttingDown;
    if (failed && Array.isArray(events)) {
      for (const e of events as Array<{ command: { name: string }; exitCode: number | string }>) {
        if (e.exitCode !== 0) log(`${e.command.name} exited with ${e.exitCode}`);
      }
    }
  }
  if (!shuttingDown)
    log(failed ? 'a process exited with an error; all have stopped' : 'all processes exited');
  return finish(failed ? 1 : 0);
}

main().catch((err: unknown) => {
  console.error(err);
  void finish(1);
});
