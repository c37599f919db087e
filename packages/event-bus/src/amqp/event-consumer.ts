import type { EventContract } from '@crm/contracts';
import type { AmqpConnection } from './amqp-connection';
import { silentLogger, type Logger } from './logger';
import type { EventBusMetrics } from './metrics';
import type { EventBinding, EventHandler, SubscribeOptions } from './subscribe-options';
import { Subscription } from './subscription';
import { DEFAULT_EXCHANGE } from './topology';

export type { EventBinding, EventHandler, HandlerContext, SubscribeOptions } from './subscribe-options';
export { Subscription } from './subscription';

/** Typed `[contract, handler]` pair; handy when building the list outside the subscribe call. */
export function on<C extends EventContract>(contract: C, handler: EventHandler<C>): EventBinding<C> {
  return [contract, handler];
}

export interface EventConsumerOptions {
  connection: AmqpConnection;
  exchange?: string;
  logger?: Logger;
  /** Counts deliveries by routing key, queue and outcome (metrics.ts). */
  metrics?: EventBusMetrics;
}

/**
 * Consumes events with manual acks, validation, retries through a TTL queue, a dead-letter queue
 * and deduplication by event id, accepting each event only from the publishers its contract names. Every `subscribe` gets its own channel (prefetch is per channel)
 * and re-declares its queues and resumes consuming after every reconnect.
 *
 *   subscription.ts      channel, queues and `consume`, re-done after every reconnect
 *   delivery-handler.ts  one message: validate, claim/dedupe, run the handler, ack / retry / DLQ
 *   message-copies.ts    the confirmed retry and DLQ copies of a message
 */
export class EventConsumer {
  private readonly subscriptions = new Set<Subscription>();

  constructor(private readonly options: EventConsumerOptions) {}

  subscribe<const T extends readonly EventContract[]>(options: SubscribeOptions<T>): Subscription {
    const subscription = new Subscription(
      this.options.connection,
      this.options.exchange ?? DEFAULT_EXCHANGE,
      this.options.logger ?? silentLogger,
      options as unknown as SubscribeOptions<readonly EventContract[]>,
      () => this.subscriptions.delete(subscription),
      this.options.metrics,
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Messages its subscriptions dropped because they did not come from a publisher of their event. */
  refusedCount(): number {
    return [...this.subscriptions].reduce((sum, subscription) => sum + subscription.refusedCount(), 0);
  }

  /** Stops every subscription, letting in-flight handlers finish. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
  }
}
