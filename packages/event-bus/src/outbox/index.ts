/**
 * `@crm/event-bus/outbox`: the MongoDB side — the outbox (mongoose plugin and write helpers), the
 * relay that publishes it, the MongoDB/FerretDB processed-event store, and `createServiceBus`,
 * which wires a service's connection, publisher, consumer and relay. Loads mongoose; the
 * transport it builds on is `@crm/event-bus/amqp`.
 */
export {
  OUTBOX_FIELD,
  OUTBOX_REJECTED_FIELD,
  outboxPlugin,
  pushOutbox,
  withOutbox,
  withOutboxUpdate,
} from './outbox';
export { BULK_INSERT_BATCH, insertPublished, OUTBOX_FIELDS } from './bulk-insert';
export type { BulkInsertModel } from './bulk-insert';
export { OutboxRelay } from './outbox-relay';
export { oldestOutboxEntryAgeSeconds, outboxBacklog } from './outbox-lag';
export type { OutboxRelayOptions, OutboxSource, RelayPassResult } from './outbox-relay';
export { DEFAULT_PROCESSED_EVENTS_COLLECTION, MongoProcessedEventStore } from './mongo-processed-event-store';
export type { MongoProcessedEventStoreOptions } from './mongo-processed-event-store';
export { isDuplicateKeyError } from './mongo-helpers';
export * from './service-bus';
