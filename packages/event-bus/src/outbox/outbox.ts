import { Schema } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { withTraceparent } from '../trace-context';

/**
 * Transactional outbox without transactions.
 *
 * FerretDB and a standalone MongoDB have no multi-document transactions, but every single-document
 * write is atomic. So the event is stored INSIDE the document it describes, in an `outbox` array,
 * by the very write that changes the document: either both the change and its event are stored,
 * or neither. The same write sets `outboxPending: true`, an indexed flag through which the
 * OutboxRelay finds pending documents without reading the whole collection; it publishes each entry
 * (with confirms) and then removes the entries and the flag.
 *
 *   insert:  Model.create(withOutbox({ ...fields }, envelope))
 *   update:  Model.updateOne(filter, withOutboxUpdate({ $set: {...} }, envelope))
 *            (or merge `pushOutbox(envelope)` yourself)
 *   then:    relay.kick()   // low latency; the relay's poll is the safety net
 *
 * Build envelopes with `createEnvelope(contract, data, correlationId)`, which validates them.
 * Each entry also keeps the `traceparent` of the span active when it is written (the request's), so
 * the relay's publish and every consumer join the request's trace (trace-context.ts); the relay
 * publishes the envelope without it.
 */
export const OUTBOX_FIELD = 'outbox';

/** Where the relay moves entries that are not valid envelopes, so they stop being retried. */
export const OUTBOX_REJECTED_FIELD = 'outboxRejected';

/**
 * `true` on every document with entries to publish (absent otherwise). The relay looks documents up
 * by it through a sparse index: a query on the array itself (`outbox.0`) reads every document of
 * the collection on FerretDB and MongoDB alike.
 */
export const OUTBOX_PENDING_FIELD = 'outboxPending';

type PendingOutbox = { outbox: EventEnvelope[]; outboxPending?: true };

/** Fields of a new document plus its pending events. */
export function withOutbox<T extends object>(fields: T, ...envelopes: EventEnvelope[]): T & PendingOutbox {
  if (OUTBOX_FIELD in fields) throw new Error('document fields already contain an outbox');
  return {
    ...fields,
    [OUTBOX_FIELD]: withTraceparent(envelopes),
    ...(envelopes.length > 0 ? { [OUTBOX_PENDING_FIELD]: true } : {}),
  } as T & PendingOutbox;
}

type OutboxPush = {
  $push: { outbox: { $each: EventEnvelope[] } };
  $set: { outboxPending: true };
};

/** The `$push` (and the flag's `$set`) to merge into an update so the events are stored by the same write. */
export function pushOutbox(...envelopes: EventEnvelope[]): OutboxPush {
  return {
    $push: { [OUTBOX_FIELD]: { $each: withTraceparent(envelopes) } },
    $set: { [OUTBOX_PENDING_FIELD]: true },
  } as OutboxPush;
}

/** Adds the outbox `$push` and the flag to an existing update document, keeping its `$push` and `$set`. */
export function withOutboxUpdate<U extends Record<string, unknown>>(
  update: U,
  ...envelopes: EventEnvelope[]
): U & OutboxPush {
  const existingPush = (update.$push ?? {}) as Record<string, unknown>;
  const existingSet = (update.$set ?? {}) as Record<string, unknown>;
  if (OUTBOX_FIELD in existingPush) throw new Error('update already pushes to the outbox');
  const outbox = pushOutbox(...envelopes);
  return {
    ...update,
    $push: { ...existingPush, ...outbox.$push },
    $set: { ...existingSet, ...outbox.$set },
  } as U & OutboxPush;
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
    [OUTBOX_PENDING_FIELD]: { type: Boolean, default: undefined },
  });
}
