import mongoose, { type Connection } from 'mongoose';
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
export function connectMongo(url: string, dbName: string, logger: Logger): MongoHandle {
  const connection = mongoose.createConnection();
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

/** Creates the indexes declared on the models; safe to run from several replicas at once. */
export async function syncIndexes(connection: Connection): Promise<void> {
  await Promise.all(Object.values(connection.models).map((model) => model.createIndexes()));
}
