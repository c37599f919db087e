/**
 * What the bus tells a metrics collector, kept free of any metrics library: the deployable passes
 * an implementation (server-kit's `eventBusMetrics`, on prom-client) through `createServiceBus`, or
 * to the publisher and consumer options directly. Labels are routing keys (event names) and queue
 * names only, never anything from a message's body.
 */
export interface EventBusMetrics {
  /** The broker confirmed an event published with this routing key. */
  published(routingKey: string): void;
  /**
   * One delivery of `queue` is done: `handled` (handler ran and was recorded), `duplicate`,
   * `busy` (claimed by another replica, looked at again later), `retry`, `dead-lettered`,
   * `refused` (not from a publisher of its event) or `not-acked` (channel lost, redelivered later).
   */
  delivered(routingKey: string, queue: string, outcome: DeliveryOutcome): void;
}

export type DeliveryOutcome =
  'handled' | 'duplicate' | 'busy' | 'retry' | 'dead-lettered' | 'refused' | 'not-acked';

/** The default: nothing is counted. */
export const noEventBusMetrics: EventBusMetrics = {
  published: () => undefined,
  delivered: () => undefined,
};
