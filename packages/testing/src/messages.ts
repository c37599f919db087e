import amqp from 'amqplib';
import { eventContractNamed, type BusParticipant, type EventEnvelope } from '@crm/contracts';
import { eventually } from './polling';

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
    waitFor: (predicate: (message: CapturedMessage<T>) => boolean = () => true, timeoutMs = 10000) =>
      eventually(() => received.find(predicate), timeoutMs, `a message for ${routingKey}`, {
        intervalMs: 50,
      }),
    async close() {
      await connection.close().catch(() => undefined);
    },
  };
}

/**
 * Publishes envelopes straight to the exchange (persistent, confirmed), as the outbox relay of their
 * publisher would: each on a connection of its contract's (first) publisher, with its `user_id`, so
 * consumers accept it. The same envelope twice stands for a relay's redelivery. `busUrl` gives a
 * deployable's broker URL (the stack's `busUrl`).
 */
export async function publishEnvelopes(
  busUrl: (publisher: BusParticipant) => string,
  exchange: string,
  envelopes: EventEnvelope[],
) {
  const channels = new Map<BusParticipant, amqp.ConfirmChannel>();
  const connections: amqp.ChannelModel[] = [];
  try {
    for (const envelope of envelopes) {
      const publisher = eventContractNamed(envelope.name)?.publishers[0] as BusParticipant | undefined;
      if (!publisher) throw new Error(`no contract names a publisher of ${envelope.name}`);
      let channel = channels.get(publisher);
      if (!channel) {
        const connection = await amqp.connect(busUrl(publisher));
        connections.push(connection);
        channel = await connection.createConfirmChannel();
        channels.set(publisher, channel);
      }
      channel.publish(exchange, envelope.name, Buffer.from(JSON.stringify(envelope)), {
        persistent: true,
        contentType: 'application/json',
        messageId: envelope.id,
        userId: publisher,
      });
    }
    for (const channel of channels.values()) await channel.waitForConfirms();
  } finally {
    for (const connection of connections) await connection.close().catch(() => undefined);
  }
}

/** Anything that counts documents: a mongoose model (kept structural so this package needs no mongoose). */
export interface CountsDocuments {
  countDocuments(filter: Record<string, unknown>): PromiseLike<number>;
}

/**
 * Waits until no document matching `filter` still holds outbox entries: the relay removes an entry
 * once the broker confirmed its event (which may come after the event was delivered).
 */
export const outboxDrained = (
  model: CountsDocuments,
  filter: Record<string, unknown> = {},
  timeoutMs = 5000,
) =>
  eventually(
    async () =>
      (await model.countDocuments({ ...filter, 'outbox.0': { $exists: true } })) === 0 ? true : undefined,
    timeoutMs,
    'outbox emptied',
  );
