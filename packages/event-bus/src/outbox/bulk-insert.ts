import { OUTBOX_FIELD, OUTBOX_PENDING_FIELD, OUTBOX_REJECTED_FIELD } from './outbox';

/** The few members of a mongoose Model that a bulk insert uses (any schema). */
export interface BulkInsertModel {
  insertMany(docs: object[], options: { ordered: false }): Promise<unknown>;
}

/**
 * A document's outbox fields: its entries, their pending flag, the entries moved aside as invalid.
 * A document whose events the relay has published has none of them, and neither has one written by
 * `insertPublished`, so a test comparing the two leaves these out.
 */
export const OUTBOX_FIELDS: readonly string[] = [OUTBOX_FIELD, OUTBOX_PENDING_FIELD, OUTBOX_REJECTED_FIELD];

/** Documents inserted per `insertMany` by `insertPublished` unless told otherwise. */
export const BULK_INSERT_BATCH = 5_000;

/**
 * Inserts documents as the relay leaves them once their events are published: without the outbox
 * entries and without the pending flag, so a relay started on them finds nothing due. For seeding a
 * database with history (benchmarks, tests) through the service's own model, so the documents are
 * cast and validated by its schema. Unordered batches of `batchSize`; answers how many were given.
 */
export async function insertPublished(
  model: BulkInsertModel,
  documents: readonly object[],
  batchSize = BULK_INSERT_BATCH,
): Promise<number> {
  for (let i = 0; i < documents.length; i += batchSize) {
    const batch = documents.slice(i, i + batchSize).map((document) => {
      const {
        [OUTBOX_FIELD]: _entries,
        [OUTBOX_PENDING_FIELD]: _pending,
        [OUTBOX_REJECTED_FIELD]: _rejected,
        ...published
      } = document as Record<string, unknown>;
      return published;
    });
    await model.insertMany(batch, { ordered: false });
  }
  return documents.length;
}
