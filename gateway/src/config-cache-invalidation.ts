/**
 * The config cache's invalidation feed: the config service's update events delete the cached
 * answers (see config-cache.ts for the cache's rules).
 */
import { configCentreUpdated, configViewUpdated } from '@crm/contracts';
import {
  AmqpConnection,
  EventConsumer,
  on,
  type EventBusMetrics,
  type ProcessedEventStore,
} from '@crm/event-bus/amqp';
import type { Logger } from '@crm/server-kit';
import { CURRENT_CENTRE, type ConfigCache } from './config-cache';

/**
 * Deleting a cache entry twice is harmless, so the invalidation consumer needs no memory of the
 * events it handled (the gateway has no database of its own).
 */
const noDeduplication: ProcessedEventStore = {
  has: async () => false,
  markProcessed: async () => undefined,
};

export interface ConfigCacheInvalidationOptions {
  amqpUrl: string;
  exchange: string;
  /**
   * The queue is `<queuePrefix>.gateway.view-cache` (its name from when only view configurations
   * were cached), shared by the gateway's replicas: they share the Redis it invalidates.
   */
  queuePrefix: string;
  logger?: Logger;
  /** Counts its deliveries (the gateway's metrics). */
  metrics?: EventBusMetrics;
}

/** Stops the consumer and its connection; `ready()` resolves once it consumes (tests, start-up logs). */
export type StopConfigCacheInvalidation = (() => Promise<void>) & {
  ready(timeoutMs?: number): Promise<void>;
};

/**
 * Starts consuming `config.view.updated.v1` and `config.centre.updated.v1` into `cache.invalidate`
 * and attaches the subscription to the cache, which serves only while it consumes. Returns at once
 * (the broker may be down; the connection keeps retrying in the background) with the function
 * that stops it.
 */
export function startConfigCacheInvalidation(
  cache: ConfigCache,
  options: ConfigCacheInvalidationOptions,
): StopConfigCacheInvalidation {
  const connection = new AmqpConnection({
    url: options.amqpUrl,
    logger: options.logger,
    connectionName: 'gateway',
  });
  const consumer = new EventConsumer({
    connection,
    exchange: options.exchange,
    logger: options.logger,
    metrics: options.metrics,
  });
  const subscription = consumer.subscribe({
    queue: `${options.queuePrefix}.gateway.view-cache`,
    events: [
      on(configViewUpdated, (event) => cache.invalidate('view', event.data.view, event.data.version)),
      on(configCentreUpdated, (event) => cache.invalidate('centre', CURRENT_CENTRE, event.data.version)),
    ],
    idempotency: noDeduplication,
    prefetch: 10,
    // Redis down: retried soon and often; each failed attempt leaves the cache bypassed meanwhile.
    retryDelayMs: [500, 2_000, 5_000, 15_000, 60_000],
    maxAttempts: 8,
  });
  cache.attachInvalidation(subscription);
  connection.start();
  const stop = async () => {
    await consumer.close();
    await connection.close();
  };
  return Object.assign(stop, { ready: (timeoutMs?: number) => subscription.ready(timeoutMs) });
}
