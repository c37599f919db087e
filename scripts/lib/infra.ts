/**
 * Local infrastructure without Docker: brings up whatever is missing of MongoDB-compatible server
 * (mongod, else FerretDB on PostgreSQL, else FerretDB on SQLite), RabbitMQ, Redis and an SMTP
 * catcher with Mailpit's HTTP API. Used by scripts/infra-up.ts, scripts/start-all.ts and
 * scripts/run-tests.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { devEnvDefaults } from './dev-env';
import { ensureFerretdbBinary, ensureMailpitBinary, findGo } from './go-tools';
import { withFileLock } from './lock';
import { restartRabbitNode } from './rabbitmq-node';
import { ensureDir, infraDir, infraPaths, rel, REPO_ROOT } from './paths';
import {
  amqpCheck,
  describeError,
  fmt,
  hostPortOf,
  httpOk,
  isLocalHost,
  mongoPing,
  redisPing,
  smtpGreets,
  tcpOpen,
  waitFor,
  type HostPort,
} from './probes';
import {
  listRunMeta,
  runLogged,
  runQuick,
  spawnDetached,
  stopComponent,
  which,
  writeRunMeta,
} from './processes';

export type ComponentStatus = 'already up' | 'started' | 'ready' | 'failed' | 'skipped';

export interface ComponentReport {
  component: string;
  status: ComponentStatus;
  detail: string;
}

export interface EnsureOptions {
  /** Where the per-component lines go (default: console.log). */
  log?: (line: string) => void;
  /** Build the cached Go binaries (FerretDB, Mailpit) even when the services are already up. */
  buildTools?: boolean;
  /** Environment to read MONGO_URL etc. from (default process.env; unset ones get dev defaults). */
  env?: NodeJS.ProcessEnv;
}

export interface EnsureResult {
  /** Run names of the processes this call started (for stopInfrastructure), in start order. */
  started: string[];
  reports: ComponentReport[];
}

export class InfrastructureError extends Error {
  constructor(
    message: string,
    readonly reports: ComponentReport[],
    readonly started: string[],
  ) {
    super(message);
    this.name = 'InfrastructureError';
  }
}

const NAME_WIDTH = 9;
const STATUS_WIDTH = 10;

function colour(status: ComponentStatus, text: string): string {
  if (!process.stdout.isTTY || process.env.NO_COLOR) return text;
  const code = status === 'failed' ? 31 : status === 'started' ? 32 : status === 'skipped' ? 90 : 36;
  return `\u001b[${code}m${text}\u001b[0m`;
}

export function formatReport(r: ComponentReport): string {
  return `infra: ${r.component.padEnd(NAME_WIDTH)} ${colour(r.status, r.status.padEnd(STATUS_WIDTH))} ${r.detail}`;
}

/** Hides passwords in URLs before printing them. */
function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):([^@/]+)@/, '//$1:***@');
}

function secondsSince(t0: number): string {
  return `${((Date.now() - t0) / 1000).toFixed(1)} s`;
}

class Ctx {
  readonly reports: ComponentReport[] = [];
  readonly started: string[] = [];
  constructor(
    readonly env: Record<string, string>,
    private readonly out: (line: string) => void,
  ) {}

  report(component: string, status: ComponentStatus, detail: string): boolean {
    const r = { component, status, detail };
    this.reports.push(r);
    this.out(formatReport(r));
    return status !== 'failed';
  }

  progress(component: string, message: string): void {
    this.out(`infra: ${component.padEnd(NAME_WIDTH)} ${''.padEnd(STATUS_WIDTH)} ${message}`);
  }
}

// ---------------------------------------------------------------------------------------------
// PostgreSQL (only FerretDB needs it)

interface PgOutcome {
  ok: boolean;
  reason: string;
}

function pgUrlOf(env: Record<string, string>): string {
  return env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/ferretdb';
}

async function pgAnswers(pgUrl: string, hp: HostPort): Promise<boolean> {
  if (!(await tcpOpen(hp))) return false;
  const psql = which('psql');
  if (!psql) return true;
  const admin = new URL(pgUrl);
  admin.pathname = '/postgres';
  return runQuick(psql, [admin.toString(), '-tAc', 'SELECT 1'], 5000).code === 0;
}

async function ensurePostgres(ctx: Ctx): Promise<PgOutcome> {
  const pgUrl = pgUrlOf(ctx.env);
  const hp = hostPortOf(pgUrl, 5432);
  if (await tcpOpen(hp)) {
    ctx.report('postgres', 'already up', `${fmt(hp)} (for FerretDB)`);
    return { ok: true, reason: '' };
  }
  if (!isLocalHost(hp.host)) {
    const reason = `FERRETDB_POSTGRESQL_URL points to ${fmt(hp)} (not this machine), which does not answer`;
    ctx.report('postgres', 'failed', reason);
    return { ok: false, reason };
  }
  const lsclusters = which('pg_lsclusters');
  const ctlcluster = which('pg_ctlcluster');
  if (!lsclusters || !ctlcluster) {
    const reason = 'PostgreSQL is not installed (apt-get install postgresql)';
    ctx.report('postgres', 'failed', reason);
    return { ok: false, reason };
  }
  // "15 main 5432 down postgres /var/lib/postgresql/15/main /var/log/..."
  const clusters = runQuick(lsclusters, ['-h'])
    .output.split('\n')
    .map((l) => l.trim().split(/\s+/))
    .filter((f) => f.length >= 6 && /^\d+$/.test(f[2]));
  const cluster = clusters.find((f) => Number(f[2]) === hp.port) ?? clusters[0];
  if (!cluster) {
    const reason = 'no PostgreSQL cluster found by pg_lsclusters';
    ctx.report('postgres', 'failed', reason);
    return { ok: false, reason };
  }
  const [version, name, port, , , dataDir] = cluster;
  if (Number(port) !== hp.port) {
    const reason = `no PostgreSQL cluster on port ${hp.port} (found ${version}/${name} on ${port})`;
    ctx.report('postgres', 'failed', reason);
    return { ok: false, reason };
  }
  const t0 = Date.now();
  const r = await runLogged('postgres', ctlcluster, ['--skip-systemctl-redirect', version, name, 'start'], {
    timeoutMs: 90_000,
  });
  const waited = await waitFor(() => pgAnswers(pgUrl, hp), { timeoutMs: 30_000 });
  if (waited) {
    const reason = `pg_ctlcluster ${version} ${name} start exited ${r.code}; ${waited}; see ${rel(infraPaths.log('postgres'))}`;
    ctx.report('postgres', 'failed', reason);
    return { ok: false, reason };
  }
  let pid: number | null = null;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    // unreadable: stop works without it
  }
  writeRunMeta({
    name: 'postgres',
    pid,
    startedAt: new Date().toISOString(),
    description: `PostgreSQL ${version}/${name}`,
    stop: {
      kind: 'command',
      command: ctlcluster,
      args: ['--skip-systemctl-redirect', version, name, 'stop'],
    },
  });
  ctx.started.push('postgres');
  ctx.report('postgres', 'started', `${fmt(hp)} (pg_ctlcluster ${version} ${name}, ${secondsSince(t0)})`);
  return { ok: true, reason: '' };
}

/** Creates FerretDB's database if absent; null on success, else why not. */
function ensureFerretDatabase(pgUrl: string): string | null {
  const psql = which('psql');
  if (!psql) return 'psql not found';
  const url = new URL(pgUrl);
  const db = decodeURIComponent(url.pathname.replace(/^\//, '')) || 'ferretdb';
  if (!/^[A-Za-z0-9_]+$/.test(db)) return `unsupported database name "${db}"`;
  url.pathname = '/postgres';
  const admin = url.toString();
  const exists = runQuick(psql, [admin, '-tAc', `SELECT 1 FROM pg_database WHERE datname = '${db}'`]);
  if (exists.code !== 0) return `psql failed: ${exists.output.trim().split('\n')[0]}`;
  if (exists.output.trim() === '1') return null;
  const created = runQuick(psql, [admin, '-tAc', `CREATE DATABASE "${db}"`]);
  if (created.code !== 0 && !/already exists/.test(created.output)) {
    return `CREATE DATABASE ${db} failed: ${created.output.trim().split('\n')[0]}`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// MongoDB-compatible server

function mongoHosts(url: string): { srv: boolean; hosts: HostPort[] } {
  const m = /^(mongodb(?:\+srv)?):\/\/(?:[^@/]*@)?([^/?]+)/.exec(url);
  if (!m) throw new Error(`MONGO_URL is not a mongodb:// URL: ${redact(url)}`);
  const hosts = m[2].split(',').map((h) => hostPortOf(`mongodb://${h}`, 27017));
  return { srv: m[1] === 'mongodb+srv', hosts };
}

async function ensureMongo(ctx: Ctx, buildTools: Promise<void>): Promise<void> {
  const url = ctx.env.MONGO_URL;
  let parsed: ReturnType<typeof mongoHosts>;
  try {
    parsed = mongoHosts(url);
  } catch (err) {
    ctx.report('mongo', 'failed', describeError(err));
    return;
  }
  const hp = parsed.hosts[0];
  const local = !parsed.srv && parsed.hosts.length === 1 && isLocalHost(hp.host);
  if (!local) {
    ctx.report('postgres', 'skipped', 'not needed (MONGO_URL points elsewhere)');
    const reason = await mongoPing(url, 5000);
    if (reason === null) ctx.report('mongo', 'already up', `${redact(url)} (external: nothing started)`);
    else
      ctx.report(
        'mongo',
        'failed',
        `MONGO_URL points elsewhere (${redact(url)}), which does not answer ping: ${reason}`,
      );
    return;
  }

  const mongod = which('mongod');
  // FerretDB needs PostgreSQL; check/start it alongside (cheap when it is up).
  if (mongod) ctx.report('postgres', 'skipped', `not needed (${mongod} is used)`);
  const pg = mongod
    ? Promise.resolve<PgOutcome>({ ok: false, reason: 'mongod is used' })
    : ensurePostgres(ctx);

  if (await tcpOpen(hp)) {
    await pg;
    const reason = await waitFor(() => mongoPing(url, 1500), { timeoutMs: 8000, intervalMs: 500 });
    if (reason === null) ctx.report('mongo', 'already up', fmt(hp));
    else
      ctx.report('mongo', 'failed', `port ${fmt(hp)} is in use but does not answer a mongo ping: ${reason}`);
    return;
  }

  const t0 = Date.now();
  let proc: ReturnType<typeof spawnDetached>;
  let how: string;
  if (mongod) {
    const dbpath = ensureDir(infraPaths.data('mongo'));
    proc = spawnDetached(
      'mongod',
      mongod,
      ['--dbpath', dbpath, '--bind_ip', hp.host, '--port', String(hp.port)],
      {
        description: `mongod on ${fmt(hp)}`,
      },
    );
    how = 'mongod';
  } else {
    let binary: string;
    try {
      await buildTools.catch(() => undefined);
      binary = await ensureFerretdbBinary((m) => ctx.progress('mongo', m));
    } catch (err) {
      await pg;
      ctx.report(
        'mongo',
        'failed',
        `no mongod on PATH and FerretDB could not be built: ${describeError(err)}`,
      );
      return;
    }
    const pgOutcome = await pg;
    const pgUrl = pgUrlOf(ctx.env);
    const dbProblem = pgOutcome.ok ? ensureFerretDatabase(pgUrl) : pgOutcome.reason;
    const stateDir = ensureDir(infraPaths.data('ferretdb'));
    const common = [
      `--listen-addr=${fmt(hp)}`,
      '--telemetry=disable',
      '--log-level=warn',
      '--debug-addr=-',
      `--state-dir=${stateDir}`,
    ];
    let args: string[];
    if (dbProblem === null) {
      args = ['--handler=postgresql', `--postgresql-url=${pgUrl}`, ...common];
      how = 'FerretDB on PostgreSQL';
    } else {
      const sqliteDir = ensureDir(infraPaths.data('sqlite'));
      args = ['--handler=sqlite', `--sqlite-url=file:${sqliteDir}/`, ...common];
      how = `FerretDB on SQLite, because ${dbProblem}`;
    }
    proc = spawnDetached('ferretdb', binary, args, {
      description: `${how} on ${fmt(hp)}`,
      match: 'ferretdb',
    });
  }
  const name = mongod ? 'mongod' : 'ferretdb';
  ctx.started.push(name);
  const reason = await waitFor(() => mongoPing(url, 1000), {
    timeoutMs: 60_000,
    intervalMs: 300,
    abort: proc.exited,
  });
  if (reason === null)
    ctx.report('mongo', 'started', `${fmt(hp)} (${how}, pid ${proc.pid}, ${secondsSince(t0)})`);
  else
    ctx.report('mongo', 'failed', `${how} did not answer ping: ${reason}; see ${rel(infraPaths.log(name))}`);
}

// ---------------------------------------------------------------------------------------------
// Redis

async function ensureRedis(ctx: Ctx): Promise<void> {
  const hp = hostPortOf(ctx.env.REDIS_URL, 6379);
  if (await redisPing(hp)) {
    ctx.report(
      'redis',
      'already up',
      isLocalHost(hp.host) ? fmt(hp) : `${fmt(hp)} (external: nothing started)`,
    );
    return;
  }
  if (!isLocalHost(hp.host)) {
    ctx.report('redis', 'failed', `REDIS_URL points elsewhere (${fmt(hp)}), which does not answer PING`);
    return;
  }
  if (await tcpOpen(hp)) {
    ctx.report('redis', 'failed', `port ${fmt(hp)} is in use by something that does not answer Redis PING`);
    return;
  }
  const server = which('redis-server');
  if (!server) {
    ctx.report('redis', 'failed', 'redis-server is not installed (apt-get install redis-server)');
    return;
  }
  const t0 = Date.now();
  const dir = ensureDir(infraPaths.data('redis'));
  const proc = spawnDetached(
    'redis',
    server,
    [
      '--bind',
      hp.host,
      '--port',
      String(hp.port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--daemonize',
      'no',
      '--dir',
      dir,
    ],
    { description: `redis-server on ${fmt(hp)}`, match: 'redis-server' },
  );
  ctx.started.push('redis');
  const reason = await waitFor(() => redisPing(hp), { timeoutMs: 20_000, abort: proc.exited });
  if (reason === null) ctx.report('redis', 'started', `${fmt(hp)} (pid ${proc.pid}, ${secondsSince(t0)})`);
  else ctx.report('redis', 'failed', `${reason}; see ${rel(infraPaths.log('redis'))}`);
}

// ---------------------------------------------------------------------------------------------
// RabbitMQ

async function ensureRabbit(ctx: Ctx): Promise<void> {
  const url = ctx.env.AMQP_URL;
  const hp = hostPortOf(url, 5672);
  const first = await amqpCheck(url);
  if (first === null) {
    ctx.report(
      'rabbitmq',
      'already up',
      isLocalHost(hp.host) ? fmt(hp) : `${redact(url)} (external: nothing started)`,
    );
    return;
  }
  if (!isLocalHost(hp.host)) {
    ctx.report(
      'rabbitmq',
      'failed',
      `AMQP_URL points elsewhere (${redact(url)}) and does not connect: ${first}`,
    );
    return;
  }
  if (await tcpOpen(hp)) {
    // Listening but refusing (booting, or wrong credentials): give it a little time.
    const reason = await waitFor(() => amqpCheck(url), { timeoutMs: 20_000, intervalMs: 1000 });
    if (reason === null) ctx.report('rabbitmq', 'already up', fmt(hp));
    else ctx.report('rabbitmq', 'failed', `port ${fmt(hp)} is open but AMQP connect fails: ${reason}`);
    return;
  }
  const ctl = which('rabbitmqctl');
  const server = which('rabbitmq-server');
  if (!ctl || !server) {
    ctx.report('rabbitmq', 'failed', 'RabbitMQ is not installed (apt-get install rabbitmq-server)');
    return;
  }
  const t0 = Date.now();
  const nodeRunning = runQuick(ctl, ['-q', 'ping'], 30_000).code === 0;
  let how = nodeRunning ? 'rabbitmqctl start_app' : 'rabbitmq-server -detached';
  const stopArgs = nodeRunning ? ['stop_app'] : ['stop'];
  const started = nodeRunning
    ? await runLogged('rabbitmq', ctl, ['start_app'], { timeoutMs: 120_000 })
    : await runLogged('rabbitmq', server, ['-detached'], { timeoutMs: 60_000 });
  ctx.started.push('rabbitmq');
  // Recorded before the wait so that a failed start can still be undone by infra-down.
  writeRunMeta({
    name: 'rabbitmq',
    pid: null,
    startedAt: new Date().toISOString(),
    description: `RabbitMQ (${how})`,
    stop: { kind: 'command', command: ctl, args: stopArgs },
  });
  let reason =
    started.code === 0
      ? await waitFor(() => amqpCheck(url), { timeoutMs: 60_000, intervalMs: 500 })
      : `${how} exited ${started.code}`;
  if (reason !== null) {
    // A node left wedged by an earlier run (Mnesia "overloaded", start_app hanging): start afresh.
    how = `fresh node after "${reason}"`;
    reason = await restartRabbitNode(url);
  }
  if (reason !== null) {
    ctx.report(
      'rabbitmq',
      'failed',
      `${how}: ${reason}; see ${rel(infraPaths.log('rabbitmq'))} and /var/log/rabbitmq`,
    );
    return;
  }
  const pidOut = runQuick(ctl, ['-q', 'eval', 'os:getpid().'], 20_000).output;
  const pid = Number(/"(\d+)"/.exec(pidOut)?.[1] ?? NaN);
  if (Number.isInteger(pid) && pid > 0) {
    writeRunMeta({
      name: 'rabbitmq',
      pid,
      startedAt: new Date().toISOString(),
      description: `RabbitMQ (${how})`,
      stop: { kind: 'command', command: ctl, args: stopArgs },
    });
  }
  ctx.report('rabbitmq', 'started', `${fmt(hp)} (${how}, ${secondsSince(t0)})`);
}

// ---------------------------------------------------------------------------------------------
// SMTP catcher with Mailpit's HTTP API

async function mailpitUp(smtp: HostPort, apiUrl: string): Promise<boolean> {
  const [s, h] = await Promise.all([smtpGreets(smtp), httpOk(`${apiUrl}/api/v1/messages?limit=1`)]);
  return s && h;
}

async function ensureMailpit(ctx: Ctx, buildTools: Promise<void>): Promise<void> {
  const smtp = hostPortOf(ctx.env.SMTP_URL, 25);
  const apiUrl = ctx.env.MAILPIT_URL.replace(/\/+$/, '');
  const http = hostPortOf(apiUrl, 80);
  const where = `smtp ${fmt(smtp)}, http ${fmt(http)}`;
  if (await mailpitUp(smtp, apiUrl)) {
    const local = isLocalHost(smtp.host) && isLocalHost(http.host);
    ctx.report('mailpit', 'already up', local ? where : `${where} (external: nothing started)`);
    return;
  }
  if (!isLocalHost(smtp.host) || !isLocalHost(http.host)) {
    ctx.report('mailpit', 'failed', `SMTP_URL/MAILPIT_URL point elsewhere (${where}) and do not answer`);
    return;
  }
  const [smtpBusy, httpBusy] = await Promise.all([tcpOpen(smtp), tcpOpen(http)]);
  if (smtpBusy || httpBusy) {
    const reason = await waitFor(async () => mailpitUp(smtp, apiUrl), { timeoutMs: 5000, intervalMs: 500 });
    if (reason === null) ctx.report('mailpit', 'already up', where);
    else
      ctx.report(
        'mailpit',
        'failed',
        `port ${smtpBusy ? fmt(smtp) : fmt(http)} is in use by something that is not an SMTP catcher with Mailpit's API`,
      );
    return;
  }
  const t0 = Date.now();
  let proc: ReturnType<typeof spawnDetached>;
  let how: string;
  try {
    if (ctx.env.MAIL_CATCHER === 'node') throw new Error('MAIL_CATCHER=node');
    await buildTools.catch(() => undefined);
    const binary = await ensureMailpitBinary((m) => ctx.progress('mailpit', m));
    const db = path.join(ensureDir(infraDir()), 'mailpit.db');
    proc = spawnDetached(
      'mailpit',
      binary,
      [
        '--smtp',
        fmt(smtp),
        '--listen',
        fmt(http),
        '--smtp-auth-accept-any',
        '--smtp-auth-allow-insecure',
        '--database',
        db,
        '--max',
        '2000',
        '--disable-version-check',
      ],
      { description: `Mailpit (${where})`, match: 'mailpit' },
    );
    how = 'Mailpit';
  } catch (err) {
    // No Go, the build failed, or MAIL_CATCHER=node: the small Node catcher serves the same API.
    const catcher = path.join(__dirname, 'mail-catcher.ts');
    ctx.progress(
      'mailpit',
      `Mailpit unavailable (${describeError(err).split('\n')[0]}); using the Node SMTP catcher`,
    );
    proc = spawnDetached(
      'mail-catcher',
      process.execPath,
      ['--import', 'tsx', catcher, '--smtp', fmt(smtp), '--listen', fmt(http)],
      { description: `Node SMTP catcher (${where})`, match: 'mail-catcher', cwd: REPO_ROOT },
    );
    how = 'Node SMTP catcher (fallback)';
  }
  const name = how === 'Mailpit' ? 'mailpit' : 'mail-catcher';
  ctx.started.push(name);
  const reason = await waitFor(() => mailpitUp(smtp, apiUrl), { timeoutMs: 30_000, abort: proc.exited });
  if (reason === null)
    ctx.report('mailpit', 'started', `${where} (${how}, pid ${proc.pid}, ${secondsSince(t0)})`);
  else ctx.report('mailpit', 'failed', `${how}: ${reason}; see ${rel(infraPaths.log(name))}`);
}

// ---------------------------------------------------------------------------------------------

async function buildGoTools(ctx: Ctx): Promise<void> {
  const t0 = Date.now();
  if (!findGo()) {
    ctx.report('tools', 'failed', 'Go is not installed (looked on PATH and at /usr/local/go/bin/go)');
    throw new Error('no go');
  }
  try {
    const [f, m] = await Promise.all([
      ensureFerretdbBinary((msg) => ctx.progress('tools', msg)),
      ensureMailpitBinary((msg) => ctx.progress('tools', msg)),
    ]);
    ctx.report('tools', 'ready', `${rel(f)}, ${rel(m)} (${secondsSince(t0)})`);
  } catch (err) {
    ctx.report('tools', 'failed', describeError(err));
    throw err;
  }
}

/** URLs the infrastructure is found at: the environment, else the development defaults. */
export function infraEnv(env: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const defaults = devEnvDefaults();
  const pick = (key: string): string => (env[key] ? String(env[key]) : defaults[key]);
  return {
    MONGO_URL: pick('MONGO_URL'),
    AMQP_URL: pick('AMQP_URL'),
    REDIS_URL: pick('REDIS_URL'),
    SMTP_URL: pick('SMTP_URL'),
    MAILPIT_URL: pick('MAILPIT_URL'),
    FERRETDB_POSTGRESQL_URL: env.FERRETDB_POSTGRESQL_URL ?? '',
    // `node` forces the Node SMTP catcher (scripts/lib/mail-catcher.ts) instead of Mailpit.
    MAIL_CATCHER: env.MAIL_CATCHER ?? '',
  };
}

/**
 * Brings up whatever is missing; resolves with the run names of the processes it started, or
 * rejects with an InfrastructureError (whose `started` lists what it did start) if something
 * could not be brought up.
 */
export async function ensureInfrastructure(options: EnsureOptions = {}): Promise<EnsureResult> {
  const out = options.log ?? ((line: string) => console.log(line));
  const ctx = new Ctx(infraEnv(options.env), out);
  ensureDir(infraPaths.run());
  ensureDir(infraPaths.logs());
  return withFileLock(
    path.join(infraPaths.run(), 'infra-up.lock'),
    async () => {
      const tools = options.buildTools ? buildGoTools(ctx) : Promise.resolve();
      tools.catch(() => undefined);
      await Promise.all([
        ensureMongo(ctx, tools),
        ensureRabbit(ctx),
        ensureRedis(ctx),
        ensureMailpit(ctx, tools),
        tools.catch(() => undefined),
      ]);
      const failed = ctx.reports.filter((r) => r.status === 'failed');
      if (failed.length > 0) {
        throw new InfrastructureError(
          `could not bring up: ${failed.map((r) => r.component).join(', ')} (logs in ${rel(infraPaths.logs())})`,
          ctx.reports,
          ctx.started,
        );
      }
      return { started: ctx.started, reports: ctx.reports };
    },
    {
      timeoutMs: 30 * 60_000,
      onWait: (pid) => out(`infra: waiting for another infra-up run (pid ${pid}) to finish`),
    },
  );
}

/** Stop order: consumers of a backend before the backend. */
const STOP_ORDER = ['mailpit', 'mail-catcher', 'ferretdb', 'mongod', 'redis', 'rabbitmq', 'postgres'];

/**
 * Stops the given run names (default: everything infra-up started and that is still recorded in
 * .infra/run). Never touches processes it did not start.
 */
export async function stopInfrastructure(
  names?: string[],
  log: (line: string) => void = (line) => console.log(line),
): Promise<void> {
  const wanted = names ?? listRunMeta().filter((n) => n !== 'infra-up.lock' && !n.endsWith('.lock'));
  const ordered = [...wanted].sort((a, b) => {
    const ia = STOP_ORDER.indexOf(a);
    const ib = STOP_ORDER.indexOf(b);
    return (ia < 0 ? STOP_ORDER.length : ia) - (ib < 0 ? STOP_ORDER.length : ib);
  });
  if (ordered.length === 0) {
    log('infra: nothing to stop (no process started by infra-up is recorded)');
    return;
  }
  for (const name of ordered) {
    const outcome = await stopComponent(name);
    log(`infra: ${name.padEnd(NAME_WIDTH)} ${outcome}`);
  }
}
