/**
 * The planner statistics of FerretDB's PostgreSQL after a bulk stage. A running server's autovacuum
 * analyses a table once a tenth of it changed; this machine's PostgreSQL runs with autovacuum off
 * (its CI configuration), so a seeded table would otherwise be planned with no statistics at all
 * (seen: an equality on an indexed field read in parallel workers with JIT, hundreds of ms). A
 * centre's data grows a day at a time, so the figures are taken with the statistics autovacuum
 * would have kept. Nothing to do on MongoDB, or where `psql` is missing (then the table says so).
 */
import { spawnSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import type { Connection } from 'mongoose';

/** The PostgreSQL database under FerretDB (as infra-up starts it). */
const POSTGRES_URL = process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/ferretdb';

/** Runs ANALYZE under FerretDB; answers what was done, for the log. */
export async function analysePlannerStatistics(connection: Connection): Promise<string> {
  const info = (await connection.db!.admin().command({ buildInfo: 1 })) as { ferretdbVersion?: string };
  if (!info.ferretdbVersion) return 'not FerretDB: nothing to analyse';
  const started = performance.now();
  const run = spawnSync('psql', [POSTGRES_URL, '-qAtc', 'ANALYZE'], { encoding: 'utf8', timeout: 600_000 });
  if (run.error || run.status !== 0)
    return `ANALYZE not run (${run.error?.message ?? run.stderr.trim().slice(0, 160)}): figures without statistics`;
  return `ANALYZE in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}
