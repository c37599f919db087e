/**
 * `@crm/event-bus/amqp`: the RabbitMQ transport — connection, publisher (confirms), consumer
 * (retries, DLQ, dedupe), envelope, topology and the processed-event store interface.
 * Loads no mongoose: the gateway and other database-less processes import this entry only
 * (test/entry-points.test.ts checks it). The MongoDB side is `@crm/event-bus/outbox`.
 */
export {
  AmqpConnection,
  brokerUserOf,
  ConnectionClosedError,
  ConnectionTimeoutError,
} from './amqp-connection';
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
export { InMemoryProcessedEventStore, processedEventKey } from './processed-events';
export type { ClaimResult, ProcessedEventStore } from './processed-events';
export { attemptFromHeaders, backoffDelay, DEFAULT_RETRY_DELAYS_MS, retryDelayFor } from './retry-schedule';
export type { BackoffOptions } from './retry-schedule';
export {
  assertConsumerQueues,
  assertEventExchange,
  copiesExchangeName,
  COPY_ROUTES,
  deadLetterQueueName,
  DEFAULT_EXCHANGE,
  ensureEventExchange,
  retryQueueName,
} from './topology';
export { PUBLISHED_BY_HEADER } from './delivery-handler';
export { SingleLane } from './single-lane';
export { DeadLetterBox, summarise as summariseDeadLetter } from './dead-letter-box';
export type {
  DeadLetterAction,
  DeadLetterBoxOptions,
  DeadLetterSummary,
  QueueDepth,
} from './dead-letter-box';
export { silentLogger } from './logger';
export type { Logger } from './logger';
export { noEventBusMetrics } from './metrics';
export type { DeliveryOutcome, EventBusMetrics } from './metrics';
// W3C trace context on the bus (outbox entries, message headers): trace-context.ts.
export { contextFromTraceparent, traceparentOf, TRACEPARENT_HEADER } from '../trace-context';
