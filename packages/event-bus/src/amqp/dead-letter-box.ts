import type { DeadLetterView } from '@crm/contracts';
import type { Channel, ConfirmChannel, GetMessage } from 'amqplib';
import type { AmqpConnection } from './amqp-connection';
import { PUBLISHED_BY_HEADER } from './delivery-handler';
import { cleanHeaders, copyProperties, publishConfirmed } from './message-copies';
import { SingleLane } from './single-lane';
import { COPY_ROUTES, copiesExchangeName, deadLetterQueueName, replyCode, retryQueueName } from './topology';

/**
 * Reading and acting on a consumer's dead letters (`<queue>.dlq`, see topology.ts) without losing
 * or reordering them — the back office's "Estado del sistema" (docs/operations.md, "Dead letters").
 *
 * How a look is taken: on a channel of its own, every message of the `.dlq` is taken with
 * `basic.get` and **no ack** (up to `maxMessages`); the chosen one is then acked (discard) or first
 * copied back to its queue and then acked (redeliver), and closing the channel hands every other one
 * back to the broker, which puts it back **in its old place** (requeued messages keep their position
 * in a classic queue). Nothing is ever taken out of the queue before it has been dealt with, so a
 * crash mid-way leaves the dead letters as they were. The only traces are the `redelivered` flag on
 * the messages looked at (nobody consumes a `.dlq`, so nobody reads it) and, while a look lasts
 * (milliseconds), the messages are invisible to another look: looks of one process wait for each
 * other; a look of another replica at that very moment sees fewer messages (the page shows them
 * again on its next refresh).
 *
 * A message is returned through the queue's own copies exchange with the routing key `return`, as
 * an expired retry is (only then does the consumer believe its `x-published-by`), without the
 * dead-letter headers and with its attempts counted from 1 again.
 */

/** What the list shows of one dead letter (the API's contract): names, ids, instants, never the data. */
export type DeadLetterSummary = DeadLetterView;

export interface QueueDepth {
  queue: string;
  /** Ready messages; null when the queue does not exist (yet) or cannot be looked at. */
  messages: number | null;
  consumers: number | null;
}

export type DeadLetterAction = 'redeliver' | 'discard';

/** Headers the consumer puts on a dead letter, dropped when it is sent back. */
const DEAD_LETTER_HEADERS = [
  'x-error',
  'x-attempt',
  'x-last-error',
  'x-dead-lettered-at',
  'x-original-exchange',
  'x-original-routing-key',
];

const text = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  return null;
};

const MESSAGE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The id a dead letter is known by: its message id, else its event id; null when it has neither. */
function idOf(message: GetMessage): string | null {
  const fromProperties = text(message.properties.messageId);
  if (fromProperties && MESSAGE_ID.test(fromProperties)) return fromProperties;
  const { id } = envelopeHead(message);
  return id && MESSAGE_ID.test(id) ? id : null;
}

/** The envelope's id, name and instant only: the data is not looked at. */
function envelopeHead(message: GetMessage): {
  id: string | null;
  name: string | null;
  occurredAt: string | null;
} {
  try {
    const parsed = JSON.parse(message.content.toString('utf8')) as Record<string, unknown>;
    const pick = (key: string) => (typeof parsed?.[key] === 'string' ? (parsed[key] as string) : null);
    return { id: pick('id'), name: pick('name'), occurredAt: pick('occurredAt') };
  } catch {
    return { id: null, name: null, occurredAt: null };
  }
}

/**
 * The routing key the publisher used. A message that failed after a retry came back through the
 * copies exchange (key `return`), so the header then names that hop: the event name is the key.
 */
function routingKeyOf(original: string | null, eventName: string | null): string | null {
  const copyRoutes: readonly string[] = Object.values(COPY_ROUTES);
  return original && !copyRoutes.includes(original) ? original : (eventName ?? original);
}

export function summarise(queue: string, message: GetMessage): DeadLetterSummary | null {
  const messageId = idOf(message);
  if (messageId === null) return null;
  const headers = message.properties.headers ?? {};
  const head = envelopeHead(message);
  const attempts = Number(headers['x-attempt']);
  return {
    queue,
    messageId,
    eventId: head.id,
    event: head.name,
    routingKey: routingKeyOf(text(headers['x-original-routing-key']), head.name),
    reason: text(headers['x-error']),
    deadLetteredAt: text(headers['x-dead-lettered-at']),
    occurredAt: head.occurredAt,
    attempts: Number.isInteger(attempts) && attempts > 0 ? attempts : null,
    publishedBy: text(headers[PUBLISHED_BY_HEADER]),
  };
}

export interface DeadLetterBoxOptions {
  connection: AmqpConnection;
  /** How many dead letters of one queue a look reads at most (the rest are counted, not listed). */
  maxMessages?: number;
  /** How long to wait for the broker connection. */
  connectTimeoutMs?: number;
}

export class DeadLetterBox {
  private readonly lanes = new Map<string, SingleLane>();
  private readonly maxMessages: number;
  private readonly connectTimeoutMs: number;

  constructor(private readonly options: DeadLetterBoxOptions) {
    this.maxMessages = options.maxMessages ?? 200;
    this.connectTimeoutMs = options.connectTimeoutMs ?? 3000;
  }

  /** Depth of a queue, its `.retry` and its `.dlq` (passive declares: nothing is created). */
  depths(queue: string): Promise<QueueDepth[]> {
    return this.depthsOf([queue, retryQueueName(queue), deadLetterQueueName(queue)]);
  }

  async depth(queue: string): Promise<QueueDepth> {
    return (await this.depthsOf([queue]))[0]!;
  }

  /**
   * Depth of each of these queues, in order, on one channel; a queue that does not exist (or may
   * not be looked at) answers nulls. Each look is bounded by `connectTimeoutMs`.
   */
  async depthsOf(queues: readonly string[]): Promise<QueueDepth[]> {
    if (queues.length === 0) return [];
    const model = await this.options.connection.waitForConnection(this.connectTimeoutMs);
    const open = async () => {
      const channel = await model.createChannel();
      channel.on('error', () => undefined); // a missing queue closes the channel with 404: expected
      return channel;
    };
    let channel = await open();
    const result: QueueDepth[] = [];
    try {
      for (const queue of queues) {
        try {
          const { messageCount, consumerCount } = await within(
            channel.checkQueue(queue),
            this.connectTimeoutMs,
          );
          result.push({ queue, messages: messageCount, consumers: consumerCount });
        } catch (error) {
          if (replyCode(error) !== 404 && replyCode(error) !== 403) throw error;
          result.push({ queue, messages: null, consumers: null });
          // The refusal closed the channel: the next queue gets a new one.
          await closeQuietly(channel);
          channel = await open();
        }
      }
    } finally {
      await closeQuietly(channel);
    }
    return result;
  }

  /** The dead letters of a consumer queue (its `.dlq`), oldest first, at most `maxMessages`. */
  list(queue: string): Promise<DeadLetterSummary[]> {
    return this.look(queue, async (_channel, messages) =>
      messages.map((m) => summarise(queue, m)).filter((s): s is DeadLetterSummary => s !== null),
    );
  }

  /**
   * Sends one dead letter back to its queue, or drops it. Answers what it was, or null when the
   * `.dlq` holds no message of that id (never there, already redelivered or discarded).
   */
  act(
    queue: string,
    messageId: string,
    action: DeadLetterAction,
    /** Runs once the message is found and before anything is done (the access trail): a throw changes nothing. */
    before?: (summary: DeadLetterSummary) => Promise<void>,
  ): Promise<DeadLetterSummary | null> {
    return this.look(queue, async (channel, messages) => {
      const message = messages.find((m) => idOf(m) === messageId);
      if (!message) return null;
      const summary = summarise(queue, message)!;
      await before?.(summary);
      if (action === 'redeliver') {
        // Back as it first came, without the bookkeeping of its failure (attempts start at 1 again).
        const headers = cleanHeaders(message);
        for (const name of DEAD_LETTER_HEADERS) delete headers[name];
        headers['x-redelivered-at'] = new Date().toISOString();
        await publishConfirmed(channel, copiesExchangeName(queue), COPY_ROUTES.back, message.content, {
          ...copyProperties(message),
          headers,
        });
      }
      channel.ack(message);
      return summary;
    });
  }

  /**
   * Takes the `.dlq`'s messages without acking them, runs `work`, then closes the channel: the broker
   * puts back every message `work` did not ack, in its place. One look per queue at a time here.
   */
  private look<T>(
    queue: string,
    work: (channel: ConfirmChannel, messages: GetMessage[]) => Promise<T>,
  ): Promise<T> {
    let lane = this.lanes.get(queue);
    if (!lane) this.lanes.set(queue, (lane = new SingleLane()));
    return lane.run(async () => {
      const model = await this.options.connection.waitForConnection(this.connectTimeoutMs);
      const channel = await model.createConfirmChannel();
      let failure: unknown;
      channel.on('error', (error: unknown) => (failure = error));
      try {
        const messages: GetMessage[] = [];
        while (messages.length < this.maxMessages) {
          const message = await channel.get(deadLetterQueueName(queue), { noAck: false });
          if (message === false) break;
          messages.push(message);
        }
        const result = await work(channel, messages);
        // Unacked ones go back on close; an ack is sent before the close on the same channel.
        return result;
      } catch (error) {
        throw failure ?? error;
      } finally {
        await closeQuietly(channel);
      }
    });
  }
}

/** The answer of `work`, or an error once `ms` have passed (a broker that does not answer). */
function within<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer from the broker within ${ms} ms`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

async function closeQuietly(channel: Channel): Promise<void> {
  await channel.close().catch(() => undefined);
}
