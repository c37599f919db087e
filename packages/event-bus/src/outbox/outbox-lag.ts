import type { mongo } from 'mongoose';
import { nativeDb } from './mongo-helpers';
import { OUTBOX_FIELD, OUTBOX_PENDING_FIELD } from './outbox';
import type { OutboxModel, OutboxSource } from './outbox-relay';

/** Pending documents read per collection at most: past that, the lag is large anyway. */
const MAX_PENDING_READ = 200;

/**
 * What waits in these outboxes: how many events, and when the oldest of them happened (null when
 * none waits). Reads only the documents flagged `outboxPending`, through the sparse index the relay
 * makes on the flag (the query the relay itself runs), at most a few hundred per collection: it costs
 * what is pending, not the size of the collections. A metrics scrape and "Estado del sistema" call it.
 */
export async function outboxBacklog(
  sources: readonly OutboxSource[],
): Promise<{ pending: number; oldestAt: Date | null }> {
  let pending = 0;
  let oldest = Infinity;
  for (const source of sources) {
    const documents = await collectionOf(source)
      .find({ [OUTBOX_PENDING_FIELD]: true }, { projection: { [OUTBOX_FIELD]: 1 } })
      .limit(MAX_PENDING_READ)
      .toArray();
    for (const document of documents) {
      const entries = Array.isArray(document[OUTBOX_FIELD]) ? (document[OUTBOX_FIELD] as unknown[]) : [];
      pending += entries.length;
      for (const entry of entries) {
        const at = Date.parse(String((entry as { occurredAt?: unknown } | null)?.occurredAt));
        if (Number.isFinite(at) && at < oldest) oldest = at;
      }
    }
  }
  return { pending, oldestAt: oldest === Infinity ? null : new Date(oldest) };
}

/** The age, in seconds, of the oldest event still waiting in these outboxes (0 when none waits). */
export async function oldestOutboxEntryAgeSeconds(
  sources: readonly OutboxSource[],
  now: Date = new Date(),
): Promise<number> {
  const { oldestAt } = await outboxBacklog(sources);
  return oldestAt ? Math.max(0, (now.getTime() - oldestAt.getTime()) / 1000) : 0;
}

function collectionOf(source: OutboxSource): mongo.Collection<mongo.Document> {
  if (typeof source === 'function') {
    const model = source as OutboxModel;
    return nativeDb(model.db).collection(model.collection.collectionName);
  }
  return source as mongo.Collection<mongo.Document>;
}
