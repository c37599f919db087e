// The `@crm/event-bus/outbox` entry: MongoDB outbox, relay, processed-event store, createServiceBus
// (see README.md, Entry points). A file for the same reason as amqp.ts.
export * from './src/outbox';
