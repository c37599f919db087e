/**
 * `@crm/event-bus`: everything, for existing importers. Prefer the two entries, which say what
 * a process loads: `@crm/event-bus/amqp` (transport, no mongoose) and `@crm/event-bus/outbox`
 * (MongoDB outbox, relay, processed-event store, createServiceBus).
 */
export * from './amqp';
export * from './outbox';
