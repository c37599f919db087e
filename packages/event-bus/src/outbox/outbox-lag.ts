import type { mongo } from 'mongoose';
import { nativeDb } from './mongo-helpers';
import { OUTBOX_FIELD, OUTBOX_PENDING_FIELD } from './outbox';
import type { OutboxModel, OutboxSource } from './outbox-relay';

/** Pending documents read per collection at most: past that, the lag is large anyway. */
const MAX_PENDING_READ = 200;

/**
 * The age, in seconds, of the oldest event still waiting in these outboxes (0 when none waits):
 * how far the relay is behind. Reads only the documents flagged `outboxPending`, through the sparse
 * index the relay makes on the flag (the query the relay itself runs), at most a few hundred of them:
 * it costs what is pending, not the size of the collections. A metrics scrape calls it.
 */
export async function oldestOutboxEntryAgeSeconds(
  sources: readonly OutboxSource[],
  now: Date = new Date(),
): Promise<number> {
  let oldest = Infinity;
  for (const source of sources) {
    const documents = await collectionOf(source)
      .find({ [OUTBOX_PENDING_FIELD]: true }, { projection: { [OUTBOX_FIELD]: 1 } })
      .limit(MAX_PENDING_READ)
      .toArray();
    for (const document of documents) {
      for (const entry of Array.isArray(document[OUTBOX_FIELD])
        ? (document[OUTBOX_FIELD] as unknown[])
        : []) {
        const at = Date.parse(String((entry as { occurredAt?: unknown } | null)?.occurredAt));
        if (Number.isFinite(at) && at < oldest) oldest = at;
      }
    }
  }
  return oldest === Infinity ? 0 : Math.max(0, (now.getTime() - oldest) / 1000);
}

function collectionOf(source: OutboxSource): mongo.Collection<mongo.Document> {
  if (typeof source === 'function') {
    const model = source as OutboxModel;
    return nativeDb(model.db).collection(model.collection.collectionName);
  }
  return source as mongo.Collection<mongo.Document>;
}
