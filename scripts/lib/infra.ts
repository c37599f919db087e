/**
 * Local infrastructure without Docker: brings up whatever is missing of MongoDB-compatible server
 * (mongod, else FerretDB on PostgreSQL, else FerretDB on SQLite), RabbitMQ, Redis and an SMTP
 * catcher with Mailpit's HTTP API. Used by scripts/infra-up.ts, scripts/start-all.ts and
 * scripts/run-tests.ts. One file per kind of component under ./infra; this one orders them.
 */
import path from 'node:path';
import { brokerPasswordVariable, BUS_PARTICIPANTS } from '@crm/contracts';
import { devEnvDefaults } from './dev-env';
import { ensureFerretdbBinary, ensureJaegerBinary, ensureMailpitBinary, findGo } from './go-tools';
import { withFileLock } from './lock';
import { ensureDir, infraPaths, rel } from './paths';
import { describeError } from './probes';
import { listRunMeta, stopComponent } from './processes';
import {
  Ctx,
  InfrastructureError,
  NAME_WIDTH,
  secondsSince,
  type EnsureOptions,
  type EnsureResult,
} from './infra/context';
import { ensureMongo } from './infra/databases';
import { ensureBrokerUsers } from './infra/broker-users';
import { ensureMailpit, ensureRabbit, ensureRedis } from './infra/messaging';
import { ensureJaeger } from './infra/jaeger';
import { ensureRedsysSimulator } from './infra/redsys';

export * from './infra/context';

async function buildGoTools(ctx: Ctx): Promise<void> {
  const t0 = Date.now();
  if (!findGo()) {
    ctx.report('tools', 'failed', 'Go is not installed (looked on PATH and at /usr/local/go/bin/go)');
    throw new Error('no go');
  }
  try {
    // Jaeger too, though only `npm start` runs it: built here, its first build (about four minutes
    // on 2 cores) does not eat into the time npm start gives the services to come up.
    const built = await Promise.all([
      ensureFerretdbBinary((msg) => ctx.progress('tools', msg)),
      ensureMailpitBinary((msg) => ctx.progress('tools', msg)),
      ensureJaegerBinary((msg) => ctx.progress('tools', msg)),
    ]);
    ctx.report('tools', 'ready', `${built.map(rel).join(', ')} (${secondsSince(t0)})`);
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
    REDSYS_URL: pick('REDSYS_URL'),
    FERRETDB_POSTGRESQL_URL: env.FERRETDB_POSTGRESQL_URL ?? '',
    // `node` forces the Node SMTP catcher (scripts/lib/mail-catcher.ts) instead of Mailpit.
    MAIL_CATCHER: env.MAIL_CATCHER ?? '',
    // A built jaeger-ui for npm start's Jaeger (infra/jaeger.ts).
    JAEGER_UI_DIR: env.JAEGER_UI_DIR ?? '',
    // The broker users (infra/broker-users.ts): topic permissions on this exchange, the audit
    // queue under this prefix, and passwords set in .env rather than the machine's random ones.
    EVENTS_EXCHANGE: env.EVENTS_EXCHANGE ?? '',
    QUEUE_PREFIX: env.QUEUE_PREFIX ?? '',
    ...Object.fromEntries(
      BUS_PARTICIPANTS.map(brokerPasswordVariable)
        .filter((name) => env[name])
        .map((name) => [name, String(env[name])]),
    ),
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
        ensureRedsysSimulator(ctx),
        options.jaeger ? ensureJaeger(ctx, tools) : Promise.resolve(),
        tools.catch(() => undefined),
      ]);
      await ensureBrokerUsers(ctx);
      // Jaeger is optional: without it the product runs, without traces.
      const failed = ctx.reports.filter((r) => r.status === 'failed' && r.component !== 'jaeger');
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
const STOP_ORDER = [
  'jaeger',
  'redsys',
  'mailpit',
  'mail-catcher',
  'ferretdb',
  'mongod',
  'redis',
  'rabbitmq',
  'postgres',
];

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
