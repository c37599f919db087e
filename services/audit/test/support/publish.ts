import amqp from 'amqplib';
import type { EventEnvelope } from '@crm/contracts';

/** Publishes envelopes straight to the exchange (persistent, confirmed), as a relay would — twice if asked. */
export async function publishRaw(
  amqpUrl: string,
  exchange: string,
  envelopes: EventEnvelope[],
): Promise<void> {
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
