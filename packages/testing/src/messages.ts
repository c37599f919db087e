import amqp from 'amqplib';
import type { EventEnvelope } from '@crm/contracts';

export interface CapturedMessage<T = unknown> {
  routingKey: string;
  body: T;
}

/**
 * Listens on a fresh exclusive queue bound to `exchange` for `routingKey`, so a test can assert
 * what was published without competing with the real consumers.
 */
export async function listenForMessages<T = unknown>(amqpUrl: string, exchange: string, routingKey: string) {
  const connection = await amqp.connect(amqpUrl);
  const channel = await connection.createChannel();
  await channel.assertExchange(exchange, 'topic', { durable: true });
  const { queue } = await channel.assertQueue('', { exclusive: true, autoDelete: true });
  await channel.bindQueue(queue, exchange, routingKey);
  const received: CapturedMessage<T>[] = [];
  await channel.consume(queue, (msg) => {
    if (!msg) return;
    received.push({ routingKey: msg.fields.routingKey, body: JSON.parse(msg.content.toString()) as T });
    channel.ack(msg);
  });

  return {
    received,
    /** Resolves with the first message matching `predicate` (already received or arriving later). */
    async waitFor(predicate: (message: CapturedMessage<T>) => boolean = () => true, timeoutMs = 10000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const match = received.find(predicate);
        if (match) return match;
        if (Date.now() > deadline) throw new Error(`no message for ${routingKey} within ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      await connection.close().catch(() => undefined);
    },
  };
}

/**
 * Publishes envelopes straight to the exchange (persistent, confirmed), as an outbox relay would;
 * the same envelope twice stands for a relay's redelivery.
 */
export async function publishEnvelopes(amqpUrl: string, exchange: string, envelopes: EventEnvelope[]) {
  const connection = await amqp.connect(amqpUrl);
  try {
    const channel = await connection.createConfirmChannel();
    await channel.assertExchange(exchange, 'topic', { durable: true });
    for (const envelope of envelopes) {
      channel.publish(exchange, envelope.name, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        contentType: 'application/json',
        messageId: envelope.id,
      });
    }
    await channel.waitForConfirms();
  } finally {
    await connection.close().catch(() => undefined);
  }
}
