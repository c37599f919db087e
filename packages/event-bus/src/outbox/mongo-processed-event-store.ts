import { randomUUID } from 'node:crypto';
import type { Connection, mongo } from 'mongoose';
import type { ClaimResult, ProcessedEventStore } from '../amqp/processed-events';
import { isDuplicateKeyError, nativeDb } from './mongo-helpers';

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
  /** Identifies this store's claims; one process never claims one key twice at once (delivery-handler.ts). */
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
