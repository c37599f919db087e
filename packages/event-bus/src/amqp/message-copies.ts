import type { ConfirmChannel, Message, Options } from 'amqplib';

/** Sends through the queue's copies exchange (topology.ts) and waits for the broker's confirm. */
export function publishConfirmed(
  channel: ConfirmChannel,
  exchange: string,
  routingKey: string,
  content: Buffer,
  options: Options.Publish,
): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.publish(exchange, routingKey, content, options, (err: unknown) =>
        err
          ? reject(err instanceof Error ? err : new Error(`publish to ${exchange} (${routingKey}) nacked`))
          : resolve(),
      );
    } catch (err) {
      reject(err);
    }
  });
}

/**
 * Properties worth keeping on a retry/DLQ copy; expiration is deliberately not carried over, nor is
 * `user_id` (the broker would refuse another user's name from the consumer): the original
 * publisher travels in the `x-published-by` header instead (delivery-handler.ts).
 */
export function copyProperties(message: Message): Options.Publish {
  const p = message.properties;
  const copy: Options.Publish = { persistent: true };
  if (p.contentType) copy.contentType = p.contentType;
  if (p.contentEncoding) copy.contentEncoding = p.contentEncoding;
  if (p.messageId) copy.messageId = p.messageId;
  if (p.correlationId) copy.correlationId = p.correlationId;
  if (p.type) copy.type = p.type;
  if (p.timestamp) copy.timestamp = p.timestamp;
  if (p.appId) copy.appId = p.appId;
  return copy;
}

/**
 * Drops RabbitMQ's dead-lettering bookkeeping (`x-death`, `x-first-death-*`): attempts are counted
 * by our own `x-attempt`, and carrying x-death into a new publish only confuses the broker's.
 */
export function cleanHeaders(message: Message): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...(message.properties.headers ?? {}) };
  for (const name of Object.keys(headers)) {
    if (name === 'x-death' || name.startsWith('x-first-death') || name.startsWith('x-last-death'))
      delete headers[name];
  }
  return headers;
}
