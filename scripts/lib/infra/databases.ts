/** The MongoDB-compatible server for infra-up: mongod, else FerretDB on PostgreSQL, else on SQLite. */
import fs from 'node:fs';
import path from 'node:path';
import { ensureFerretdbBinary } from '../go-tools';
import { ensureDir, infraPaths, rel } from '../paths';
import {
  describeError,
  fmt,
  hostPortOf,
  isLocalHost,
  mongoPing,
  tcpOpen,
  waitFor,
  type HostPort,
} from '../probes';
import { runLogged, runQuick, spawnDetached, which, writeRunMeta } from '../processes';

import { Ctx, redact, secondsSince } from './context';

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

/**
 * Makes FerretDB's equality lookups use an index (ferretdb-equality-indexes.sql: a GIN index beside
 * each index it creates). When it cannot, they scan as before (slower, nothing else): said, not fatal.
 */
function addEqualityIndexes(ctx: Ctx, pgUrl: string, { unlessInstalled = false } = {}): void {
  const scan = (why: string) => ctx.progress('mongo', `equality lookups will scan their collections: ${why}`);
  const psql = which('psql');
  if (!psql) return scan('psql not found');
  if (unlessInstalled) {
    const trigger = "SELECT 1 FROM pg_event_trigger WHERE evtname = 'crm_equality_indexes'";
    if (runQuick(psql, [pgUrl, '-tAc', trigger]).output.trim() === '1') return;
  }
  // Indexes are added to existing collections too: allow for a large database.
  const script = path.join(__dirname, 'ferretdb-equality-indexes.sql');
  const applied = runQuick(psql, [pgUrl, '-v', 'ON_ERROR_STOP=1', '-qAt', '-f', script], 300_000);
  if (applied.code !== 0) scan(applied.output.trim().split('\n')[0] || `psql exited ${applied.code}`);
}

// ---------------------------------------------------------------------------------------------
// MongoDB-compatible server

function mongoHosts(url: string): { srv: boolean; hosts: HostPort[] } {
  const m = /^(mongodb(?:\+srv)?):\/\/(?:[^@/]*@)?([^/?]+)/.exec(url);
  if (!m) throw new Error(`MONGO_URL is not a mongodb:// URL: ${redact(url)}`);
  const hosts = m[2].split(',').map((h) => hostPortOf(`mongodb://${h}`, 27017));
  return { srv: m[1] === 'mongodb+srv', hosts };
}

export async function ensureMongo(ctx: Ctx, buildTools: Promise<void>): Promise<void> {
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
    // A FerretDB started before the equality indexes existed gets them too.
    if ((await pg).ok) addEqualityIndexes(ctx, pgUrlOf(ctx.env), { unlessInstalled: true });
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
    if (dbProblem === null) addEqualityIndexes(ctx, pgUrl);
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
