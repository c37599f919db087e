import { AmqpConnection } from '../amqp/amqp-connection';
import { EventConsumer } from '../amqp/event-consumer';
import { EventPublisher } from '../amqp/event-publisher';
import type { Logger } from '../amqp/logger';
import type { EventBusMetrics } from '../amqp/metrics';
import { OutboxRelay, type OutboxSource } from './outbox-relay';

export interface ServiceBusOptions {
  url: string;
  exchange: string;
  logger: Logger;
  /** The service's name, shown on its connection in the RabbitMQ management UI. */
  name: string;
  /** Counts published and delivered events (the deployable's metrics; absent: not counted). */
  metrics?: EventBusMetrics;
}

/**
 * What every service wires the same way: one connection, a publisher and a consumer on the shared
 * exchange, an outbox relay over the service's collections, and the broker's readiness check.
 */
export function createServiceBus({ url, exchange, logger, name, metrics }: ServiceBusOptions) {
  const connection = new AmqpConnection({ url, logger, connectionName: name });
  const publisher = new EventPublisher({ connection, exchange, logger, metrics });
  return {
    connection,
    publisher,
    consumer: new EventConsumer({ connection, exchange, logger, metrics }),
    outboxRelay: (sources: readonly OutboxSource[]) => new OutboxRelay({ publisher, sources, logger }),
    readiness: { name: 'broker', check: () => connection.isConnected() },
  };
}
