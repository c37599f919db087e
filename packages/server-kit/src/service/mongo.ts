import mongoose, { type Connection, type Schema } from 'mongoose';
import { DEFAULT_QUERY_MAX_TIME_MS } from '../config';
import type { Logger } from '../logger';

/**
 * Short timeouts and no command buffering: with the database gone a request fails within ~1 s
 * (mapped to 503) instead of hanging in a queue.
 */
const CONNECTION_OPTIONS = {
  serverSelectionTimeoutMS: 1000,
  connectTimeoutMS: 1000,
  socketTimeoutMS: 20000,
  heartbeatFrequencyMS: 2000,
  maxPoolSize: 20,
  bufferCommands: false,
  autoIndex: false,
} as const;

/**
 * Every read through the connection's models carries `maxTimeMS` unless it sets its own: the server
 * stops a read that outlives the gateway's wait (MongoDB and FerretDB both honour it on find, count
 * and aggregate) and the request answers 503 (errors.ts), instead of a scan that runs on after the
 * caller was told 504, or past the driver's socket timeout, which would clear the whole pool. A
 * read that may rightly take longer (a streamed export) sets its own (`maxTimeMS(0)`: no limit).
 */
function boundedReads(maxTimeMs: number) {
  return (schema: Schema) => {
    // Not `distinct`: FerretDB 1.24 refuses the field there ("unknown field").
    schema.pre(['find', 'findOne', 'countDocuments'], function () {
      if (this.getOptions().maxTimeMS === undefined) this.maxTimeMS(maxTimeMs);
    });
    schema.pre('aggregate', function () {
      if (this.options.maxTimeMS === undefined) this.option({ maxTimeMS: maxTimeMs });
    });
  };
}

/**
 * Writes to send in one update command (`bulkWrite`) at most: FerretDB 1.24 holds a PostgreSQL
 * connection per statement of an update command until the command ends, so one command with more
 * statements than its pool has connections (50) never finishes and stalls every other client.
 */
export const UPDATES_PER_COMMAND = 25;

export interface MongoHandle {
  connection: Connection;
  /** Resolves once the first connection succeeded (retried in the background until then). */
  ready: Promise<void>;
  isReady: () => Promise<boolean>;
  close: () => Promise<void>;
}

/**
 * Opens the service's own database. The first connection is retried with backoff instead of crashing,
 * so a service started before its database comes up by itself when the database does.
 */
export function connectMongo(
  url: string,
  dbName: string,
  logger: Logger,
  { queryMaxTimeMs = DEFAULT_QUERY_MAX_TIME_MS }: { queryMaxTimeMs?: number } = {},
): MongoHandle {
  const connection = mongoose.createConnection();
  connection.plugin(boundedReads(queryMaxTimeMs));
  let closed = false;

  const ready = (async () => {
    for (let attempt = 1; !closed; attempt++) {
      try {
        await connection.openUri(url, { ...CONNECTION_OPTIONS, dbName });
        logger.info({ dbName }, 'database connected');
        return;
      } catch (error) {
        if (attempt === 1 || attempt % 10 === 0) {
          logger.warn({ dbName, attempt, err: (error as Error).message }, 'database not reachable, retrying');
        }
        await new Promise((resolve) => setTimeout(resolve, Math.min(250 * attempt, 3000)));
      }
    }
  })();

  return {
    connection,
    ready,
    isReady: async () => {
      if (connection.readyState !== 1 || !connection.db) return false;
      await connection.db.admin().command({ ping: 1 });
      return true;
    },
    close: async () => {
      closed = true;
      await connection.close().catch(() => undefined);
    },
  };
}

/**
 * Index names a schema used to declare and no longer does. `createIndexes` only ever adds, so an index
 * taken out of a schema would stay (and keep costing every write) in every existing database; the
 * names listed here are dropped at start-up instead. Only these names: mongoose's own `syncIndexes`
 * would drop every index the schema does not declare, including those created outside it (the outbox
 * relay's `outboxPending` index, see @crm/event-bus).
 */
const RETIRED = Symbol.for('crm.retiredIndexes');

export function retireIndexes(schema: Schema, names: readonly string[]): void {
  (schema as unknown as Record<symbol, readonly string[]>)[RETIRED] = names;
}

export function retiredIndexesOf(schema: Schema): readonly string[] {
  return (schema as unknown as Record<symbol, readonly string[] | undefined>)[RETIRED] ?? [];
}

/** MongoDB's IndexNotFound, and NamespaceNotFound (the collection does not exist yet). */
const NOTHING_TO_DROP = new Set([26, 27]);

/**
 * Creates the indexes declared on the models, then drops the retired ones (see `retireIndexes`);
 * safe to run from several replicas at once (a replica that finds one already dropped goes on).
 */
export async function syncIndexes(connection: Connection): Promise<void> {
  await Promise.all(
    Object.values(connection.models).map(async (model) => {
      await model.createIndexes();
      for (const name of retiredIndexesOf(model.schema)) {
        await model.collection.dropIndex(name).catch((error: { code?: number; message?: string }) => {
          if (
            NOTHING_TO_DROP.has(error.code ?? -1) ||
            /index not found|ns not found/i.test(error.message ?? '')
          )
            return;
          throw error;
        });
      }
    }),
  );
}
