/**
 * What autovacuum does for FerretDB's PostgreSQL after a bulk stage. A running server's autovacuum
 * analyses a table once a tenth of it changed and vacuums it, which also empties the pending lists
 * of its GIN indexes (FerretDB answers equalities through them); this machine's PostgreSQL runs with
 * autovacuum off (its CI configuration), so a seeded table would be planned with no statistics
 * (seen: an equality on an indexed field read in parallel workers with JIT, hundreds of ms) and
 * every equality would scan pending lists of up to 4 MB (seen: the outbox relays' `outboxPending`
 * poll at 400–650 ms during a load, 1 ms after). A centre's data grows a day at a time, so the
 * figures are taken with the tables as autovacuum keeps them. Nothing to do on MongoDB, or where
 * `psql` is missing (then the log says so).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { performance } from 'node:perf_hooks';
import type { Connection } from 'mongoose';

/** The PostgreSQL database under FerretDB (as infra-up starts it). */
const POSTGRES_URL = process.env.FERRETDB_POSTGRESQL_URL || 'postgres://postgres@127.0.0.1:5432/ferretdb';

/** Runs VACUUM (ANALYZE) under FerretDB; answers what was done, for the log. */
export async function keepTablesAsAutovacuum(connection: Connection): Promise<string> {
  const info = (await connection.db!.admin().command({ buildInfo: 1 })) as { ferretdbVersion?: string };
  if (!info.ferretdbVersion) return 'not FerretDB: nothing to analyse';
  const started = performance.now();
  try {
    // Not spawnSync: the services in this process keep answering their brokers' heartbeats meanwhile.
    await promisify(execFile)('psql', [POSTGRES_URL, '-qAtc', 'VACUUM (ANALYZE)'], { timeout: 600_000 });
  } catch (error) {
    return `VACUUM (ANALYZE) not run (${String((error as Error).message).slice(0, 160)}): figures without it`;
  }
  return `VACUUM (ANALYZE) in ${((performance.now() - started) / 1000).toFixed(1)} s`;
}
