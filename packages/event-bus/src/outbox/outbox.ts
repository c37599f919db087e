import { Schema } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';

/**
 * Transactional outbox without transactions.
 *
 * FerretDB and a standalone MongoDB have no multi-document transactions, but every single-document
 * write is atomic. So the event is stored INSIDE the document it describes, in an `outbox` array,
 * by the very write that changes the document: either both the change and its event are stored,
 * or neither. The OutboxRelay later publishes each entry (with confirms) and then `$pull`s it.
 *
 *   insert:  Model.create(withOutbox({ ...fields }, envelope))
 *   update:  Model.updateOne(filter, withOutboxUpdate({ $set: {...} }, envelope))
 *            (or merge `pushOutbox(envelope)` yourself)
 *   then:    relay.kick()   // low latency; the relay's poll is the safety net
 *
 * Build envelopes with `createEnvelope(contract, data, correlationId)`, which validates them.
 */
export const OUTBOX_FIELD = 'outbox';

/** Where the relay moves entries that are not valid envelopes, so they stop being retried. */
export const OUTBOX_REJECTED_FIELD = 'outboxRejected';

/** Fields of a new document plus its pending events. */
export function withOutbox<T extends object>(
  fields: T,
  ...envelopes: EventEnvelope[]
): T & { outbox: EventEnvelope[] } {
  if (OUTBOX_FIELD in fields) throw new Error('document fields already contain an outbox');
  return { ...fields, [OUTBOX_FIELD]: [...envelopes] } as T & { outbox: EventEnvelope[] };
}

/** The `$push` to merge into an update so the events are stored by the same write. */
export function pushOutbox(...envelopes: EventEnvelope[]): { $push: { outbox: { $each: EventEnvelope[] } } } {
  return { $push: { [OUTBOX_FIELD]: { $each: [...envelopes] } } } as {
    $push: { outbox: { $each: EventEnvelope[] } };
  };
}

/** Adds the outbox `$push` to an existing update document, keeping any `$push` it already has. */
export function withOutboxUpdate<U extends Record<string, unknown>>(
  update: U,
  ...envelopes: EventEnvelope[]
): U & ReturnType<typeof pushOutbox> {
  const existingPush = (update.$push ?? {}) as Record<string, unknown>;
  if (OUTBOX_FIELD in existingPush) throw new Error('update already pushes to the outbox');
  return { ...update, $push: { ...existingPush, ...pushOutbox(...envelopes).$push } } as U &
    ReturnType<typeof pushOutbox>;
}

/**
 * Mongoose plugin declaring the outbox fields. Without it mongoose's strict mode silently drops
 * `outbox` from creates and updates. Entries are Mixed (no casting, no subdocument `_id`), the
 * field is absent rather than `[]` on documents without events. It is deliberately not `select: false`:
 * that turns every findOneAndUpdate into a projected findAndModify, which FerretDB rejects; map
 * documents to API views explicitly instead of returning them raw.
 */
export function outboxPlugin(schema: Schema): void {
  schema.add({
    [OUTBOX_FIELD]: { type: [Schema.Types.Mixed], default: undefined },
    [OUTBOX_REJECTED_FIELD]: { type: [Schema.Types.Mixed], default: undefined },
  });
}
