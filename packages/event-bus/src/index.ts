export { AmqpConnection, ConnectionClosedError, ConnectionTimeoutError } from './amqp-connection';
export type { AmqpConnectionOptions, ConnectionSetup, SetupRegistration } from './amqp-connection';
export { assertEnvelope, createEnvelope, describeIssues, EventValidationError } from './event-envelope';
export type { ContractData, CreateEnvelopeOptions } from './event-envelope';
export { EventPublisher, PublisherClosedError, PublishTimeoutError } from './event-publisher';
export type { EnvelopePublisher, EventPublisherOptions, PublishOptions } from './event-publisher';
export { EventConsumer, on, Subscription } from './event-consumer';
export type {
  EventBinding,
  EventConsumerOptions,
  EventHandler,
  HandlerContext,
  SubscribeOptions,
} from './event-consumer';
export {
  OUTBOX_FIELD,
  OUTBOX_REJECTED_FIELD,
  outboxPlugin,
  pushOutbox,
  withOutbox,
  withOutboxUpdate,
} from './outbox';
export { OutboxRelay } from './outbox-relay';
export type { OutboxRelayOptions, OutboxSource, RelayPassResult } from './outbox-relay';
export {
  DEFAULT_PROCESSED_EVENTS_COLLECTION,
  InMemoryProcessedEventStore,
  isDuplicateKeyError,
  MongoProcessedEventStore,
  processedEventKey,
} from './processed-events';
export type { ClaimResult, MongoProcessedEventStoreOptions, ProcessedEventStore } from './processed-events';
export { attemptFromHeaders, backoffDelay, DEFAULT_RETRY_DELAYS_MS, retryDelayFor } from './retry-schedule';
export type { BackoffOptions } from './retry-schedule';
export {
  assertConsumerQueues,
  assertEventExchange,
  deadLetterQueueName,
  DEFAULT_EXCHANGE,
  retryQueueName,
} from './topology';
export { SingleLane } from './single-lane';
export { silentLogger } from './logger';
export type { Logger } from './logger';
export * from './service-bus';
