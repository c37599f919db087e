import type { Connection, mongo } from 'mongoose';

/** MongoDB's (and FerretDB's) duplicate-key error, code 11000: an insert lost a race on a unique index. */
export function isDuplicateKeyError(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 11000;
}

/** The native Db behind a mongoose Connection, or the Db itself. */
export function nativeDb(source: Connection | mongo.Db): mongo.Db {
  if (isMongooseConnection(source)) {
    const db = source.db;
    if (!db) throw new Error(`mongoose connection "${source.name ?? ''}" is not open`);
    return db;
  }
  return source;
}

function isMongooseConnection(source: Connection | mongo.Db): source is Connection {
  return (
    typeof (source as Connection).getClient === 'function' &&
    typeof (source as Connection).model === 'function'
  );
}
