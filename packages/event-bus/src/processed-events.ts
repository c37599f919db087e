import { randomUUID } from 'node:crypto';
import type { Connection, mongo } from 'mongoose';

/**
 * Remembers which events a consumer has already handled, so redeliveries (a consumer died before
 * its ack, a relay published twice) do not repeat side effects. Keys are `<queue>:<eventId>`:
 * two consumers of the same event keep separate records.
 */
export interface ProcessedEventStore {
  has(key: string): Promise<boolean>;
  /** Must not fail when the key already exists: another delivery of the same event got there first. */
  markProcessed(key: string): Promise<void>;
  /**
   * Optional, for consumers running as several replicas: takes the key for this process before
   * the handler runs, so two copies of one event delivered to two replicas at the same moment (two
   * outbox relays published it) do not both run the handler. `busy`: another process holds a
   * live claim; `processed`: already done. A claim not marked processed within `leaseMs` (its
   * holder died) can be taken over. Without it, `has` + `markProcessed` dedupe only sequential copies.
   */
  claim?(key: string, leaseMs: number): Promise<ClaimResult>;
  /** Gives up this process's claim (the handler failed), so a retry anywhere can claim it at once. */
  release?(key: string): Promise<void>;
}

export type ClaimResult = 'claimed' | 'processed' | 'busy';

export function processedEventKey(queue: string, eventId: string): string {
  return `${queue}:${eventId}`;
}

export const DEFAULT_PROCESSED_EVENTS_COLLECTION = 'processed_events';

interface ProcessedEventDocument {
  _id: string;
  /** Set once the handler succeeded; absent while the event is only claimed. */
  processedAt?: Date;
  /** The claiming process (a claim without processedAt) and until when its claim holds. */
  claimedBy?: string;
  leaseUntil?: Date;
}

export interface MongoProcessedEventStoreOptions {
  collection?: string;
}

/**
 * Mongo-backed store in the consuming service's own database. `_id` is the key, so the unique
 * index that comes with every collection is what settles races between concurrent deliveries —
 * no transactions needed (FerretDB and standalone MongoDB have none).
 */
export class MongoProcessedEventStore implements ProcessedEventStore {
  private readonly collectionName: string;
  /** Identifies this store's claims; one process never claims one key twice at once (event-consumer.ts). */
  private readonly owner = randomUUID();
  /** Keys this store holds a claim on, so marking them is one update instead of a failed insert first. */
  private readonly claims = new Set<string>();

  /** `db`: a mongoose Connection (from createConnection/mongoose.connection) or a native Db. */
  constructor(
    private readonly db: Connection | mongo.Db,
    options: MongoProcessedEventStoreOptions = {},
  ) {
    this.collectionName = options.collection ?? DEFAULT_PROCESSED_EVENTS_COLLECTION;
  }

  async has(key: string): Promise<boolean> {
    const found = await this.collection().findOne(
      { _id: key, processedAt: { $exists: true } },
      { projection: { _id: 1 } },
    );
    return found !== null;
  }

  /**
   * Claims with an insert under the `_id` index (atomic on MongoDB and FerretDB alike, unlike an
   * update). An expired claim is taken over by deleting exactly that claim (a delete is atomic too,
   * so of two processes taking over at once only one deletes it) and inserting a new one.
   */
  async claim(key: string, leaseMs: number): Promise<ClaimResult> {
    for (let round = 0; round < 3; round++) {
      const now = Date.now();
      try {
        await this.collection().insertOne({
          _id: key,
          claimedBy: this.owner,
          leaseUntil: new Date(now + leaseMs),
        });
        this.claims.add(key);
        return 'claimed';
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
      }
      const existing = await this.collection().findOne({ _id: key });
      if (!existing) continue; // released meanwhile: try the insert again
      if (existing.processedAt) return 'processed';
      if (existing.leaseUntil && existing.leaseUntil.getTime() > now) return 'busy';
      await this.collection().deleteOne({
        _id: key,
        processedAt: { $exists: false },
        claimedBy: existing.claimedBy,
        leaseUntil: existing.leaseUntil,
      });
    }
    return 'busy';
  }

  async release(key: string): Promise<void> {
    this.claims.delete(key);
    await this.collection().deleteOne({ _id: key, claimedBy: this.owner, processedAt: { $exists: false } });
  }

  async markProcessed(key: string): Promise<void> {
    if (!this.claims.delete(key)) {
      try {
        await this.collection().insertOne({ _id: key, processedAt: new Date() });
        return;
      } catch (err) {
        if (!isDuplicateKeyError(err)) throw err;
        // Another delivery got there first (then the update below changes nothing).
      }
    }
    // Turns our claim into the processed record.
    await this.collection().updateOne(
      { _id: key, processedAt: { $exists: false } },
      { $set: { processedAt: new Date() }, $unset: { claimedBy: '', leaseUntil: '' } },
    );
  }

  private collection(): mongo.Collection<ProcessedEventDocument> {
    return nativeDb(this.db).collection<ProcessedEventDocument>(this.collectionName);
  }
}

/** For unit tests only: forgets everything on restart, so it cannot deduplicate in production. */
export class InMemoryProcessedEventStore implements ProcessedEventStore {
  private readonly keys = new Set<string>();

  async has(key: string): Promise<boolean> {
    return this.keys.has(key);
  }

  async markProcessed(key: string): Promise<void> {
    this.keys.add(key);
  }

  get size(): number {
    return this.keys.size;
  }
}

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
