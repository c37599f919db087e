import type { Channel, ChannelModel } from 'amqplib';
import { DEFAULT_EVENTS_EXCHANGE } from '@crm/contracts';

/**
 * Names and declarations shared by publisher and consumer, so both sides always agree.
 *
 *   publisher ──(routing key = event name)──► <exchange> (topic, durable)
 *        ──► <queue>          consumer reads here (durable, manual ack)
 *
 *   <queue>.copies   the consumer's own direct exchange for the copies it makes of a message:
 *        'retry'  ──► <queue>.retry   waits its per-message TTL, then is dead-lettered by the broker
 *                                     to <queue>.copies with the key 'return'
 *        'return' ──► <queue>         back to the consumer
 *        'dlq'    ──► <queue>.dlq     invalid messages and messages that failed maxAttempts times
 *
 * Copies never go through the default exchange: publishing there would let a user drop a message
 * into any queue by name, so no deployable's broker user may (see @crm/contracts broker-access.ts).
 * Only the consumer itself can write to `<queue>.copies`, which is why a copy arriving from it is
 * trusted to say who published the original (`x-published-by`, delivery-handler.ts).
 */
export const DEFAULT_EXCHANGE = DEFAULT_EVENTS_EXCHANGE;

export const retryQueueName = (queue: string): string => `${queue}.retry`;
export const deadLetterQueueName = (queue: string): string => `${queue}.dlq`;
export const copiesExchangeName = (queue: string): string => `${queue}.copies`;

/** Routing keys on `<queue>.copies`. */
export const COPY_ROUTES = { retry: 'retry', deadLetter: 'dlq', back: 'return' } as const;

/**
 * Makes sure the events exchange exists. It is looked up first (a passive declare, on a channel of
 * its own because a miss closes the channel): the broker's definitions create it, and a deployable's
 * user may not configure it. Only when it is missing is it declared, which works for a user allowed
 * to (development brokers, the event bus's own tests).
 */
export async function ensureEventExchange(
  model: ChannelModel,
  channel: Channel,
  exchange: string,
): Promise<void> {
  const probe = await model.createChannel();
  probe.on('error', () => undefined);
  let exists = true;
  try {
    await probe.checkExchange(exchange);
  } catch (err) {
    if (replyCode(err) !== 404) throw err;
    exists = false;
  } finally {
    await probe.close().catch(() => undefined);
  }
  if (!exists) await assertEventExchange(channel, exchange);
}

export async function assertEventExchange(channel: Channel, exchange: string): Promise<void> {
  await channel.assertExchange(exchange, 'topic', { durable: true });
}

/** The AMQP reply code of a channel or connection error (403 ACCESS_REFUSED, 404, 406 …). */
export function replyCode(err: unknown): number | undefined {
  const code = (err as { code?: unknown })?.code;
  return typeof code === 'number' ? code : undefined;
}

/**
 * Declares the consumer's queues and its copies exchange, and binds the main queue to each routing
 * key. Idempotent. The events exchange must exist (ensureEventExchange).
 */
export async function assertConsumerQueues(
  channel: Channel,
  exchange: string,
  queue: string,
  routingKeys: readonly string[],
): Promise<void> {
  const copies = copiesExchangeName(queue);
  await channel.assertExchange(copies, 'direct', { durable: true });
  await channel.assertQueue(queue, { durable: true });
  await channel.assertQueue(deadLetterQueueName(queue), { durable: true });
  await channel.assertQueue(retryQueueName(queue), {
    durable: true,
    // No consumer reads the retry queue: an expired message is dead-lettered by the broker to the
    // queue's own copies exchange, which routes it back into the main queue.
    deadLetterExchange: copies,
    deadLetterRoutingKey: COPY_ROUTES.back,
  });
  await channel.bindQueue(retryQueueName(queue), copies, COPY_ROUTES.retry);
  await channel.bindQueue(deadLetterQueueName(queue), copies, COPY_ROUTES.deadLetter);
  await channel.bindQueue(queue, copies, COPY_ROUTES.back);
  for (const key of routingKeys) await channel.bindQueue(queue, exchange, key);
}

/**
 * A `<queue>.retry` declared by an older version dead-letters through the default exchange, and
 * RabbitMQ refuses to redeclare a queue with other arguments (406). Such a queue is deleted once it
 * is empty (its messages keep expiring back into the main queue meanwhile), so the next attempt of
 * the subscription's setup declares it anew. Returns whether it was deleted.
 */
export async function dropOutdatedRetryQueue(model: ChannelModel, queue: string): Promise<boolean> {
  const channel = await model.createChannel();
  channel.on('error', () => undefined);
  try {
    await channel.deleteQueue(retryQueueName(queue), { ifEmpty: true });
    return true;
  } catch {
    return false;
  } finally {
    await channel.close().catch(() => undefined);
  }
}
