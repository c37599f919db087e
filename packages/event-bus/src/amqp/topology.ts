import type { Channel } from 'amqplib';

/**
 * Names and declarations shared by publisher and consumer, so both sides always agree.
 *
 *   publisher ──(routing key = event name)──► <exchange> (topic, durable)
 *        ──► <queue>          consumer reads here (durable, manual ack)
 *        ──► <queue>.retry    failed messages wait here; per-message TTL, then dead-lettered
 *                             through the default exchange back to <queue>
 *        ──► <queue>.dlq      invalid messages and messages that failed maxAttempts times
 */
export const DEFAULT_EXCHANGE = 'crm.events';

export const retryQueueName = (queue: string): string => `${queue}.retry`;
export const deadLetterQueueName = (queue: string): string => `${queue}.dlq`;

export async function assertEventExchange(channel: Channel, exchange: string): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
}

/** Declares the consumer's queue trio and binds the main queue to each routing key. Idempotent. */
export async function assertConsumerQueues(
  channel: Channel,
  exchange: string,
  queue: string,
  routingKeys: readonly string[],
): Promise<void> {
  await assertEventExchange(channel, exchange);
  await channel.assertQueue(queue, { durable: true });
  await channel.assertQueue(deadLetterQueueName(queue), { durable: true });
  await channel.assertQueue(retryQueueName(queue), {
    durable: true,
    // No consumer reads the retry queue: an expired message is dead-lettered via the default
    // exchange ('') straight back into the main queue.
    deadLetterExchange: '',
    deadLetterRoutingKey: queue,
  });
  for (const key of routingKeys) await channel.bindQueue(queue, exchange, key);
}
