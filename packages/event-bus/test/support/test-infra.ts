import amqp, { type Channel, type GetMessage } from 'amqplib';
import { z } from 'zod';
import type { EventContract } from '@crm/contracts';
import { sleep } from '@crm/testing/src/polling';
import { brokerUserOf } from '../../src';
import type { Logger } from '../../src';

/** Real infrastructure only: these tests exist to show behaviour against RabbitMQ and FerretDB/MongoDB. */
export const AMQP_URL = process.env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672';
export const MONGO_URL = process.env.MONGO_URL ?? 'mongodb://127.0.0.1:27017';

/** The broker user these tests connect as: publisher and consumer of their events. */
export const TEST_BROKER_USER = brokerUserOf(AMQP_URL);

const thingSchema = z.object({ thingId: z.string().min(1), n: z.number().int() });
export const thingHappened: EventContract<typeof thingSchema> = {
  name: 'test.thing.happened.v1',
  schema: thingSchema,
  publishers: [TEST_BROKER_USER],
  consumers: [TEST_BROKER_USER],
};

export interface LogEntry {
  level: keyof Logger;
  obj: object;
  msg?: string;
}

/** Captures log calls for assertions; prints them too when EVENT_BUS_TEST_LOGS=1. */
export function recordingLogger(): Logger & { entries: LogEntry[]; find(msg: string): LogEntry[] } {
  const entries: LogEntry[] = [];
  const print = process.env.EVENT_BUS_TEST_LOGS === '1';
  const record =
    (level: keyof Logger) =>
    (obj: object, msg?: string): void => {
      entries.push({ level, obj, msg });
      if (print) console.log(JSON.stringify({ level, msg, ...obj }));
    };
  return {
    entries,
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    debug: record('debug'),
    find: (msg) => entries.filter((entry) => entry.msg === msg),
  };
}

/**
 * Test-side broker access (inspect queues, clean up) on a throwaway connection per call, retried
 * while the broker is briefly away (another test file of this package may be restarting it).
 */
export async function withBroker<T>(work: (channel: Channel) => Promise<T>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let connection: amqp.ChannelModel | undefined;
    try {
      connection = await amqp.connect(AMQP_URL);
      connection.on('error', () => undefined);
      const channel = await connection.createChannel();
      channel.on('error', () => undefined);
      const result = await work(channel);
      await connection.close().catch(() => undefined);
      return result;
    } catch (err) {
      await connection?.close().catch(() => undefined);
      if (Date.now() > deadline || !isConnectionProblem(err)) throw err;
      await sleep(250);
    }
  }
}

function isConnectionProblem(err: unknown): boolean {
  const text = String((err as { code?: unknown })?.code ?? '') + String((err as Error)?.message ?? '');
  return /ECONNREFUSED|ECONNRESET|EPIPE|CONNECTION_FORCED|Connection closed|Channel closed|Socket closed|socket/i.test(
    text,
  );
}

export async function messageCount(queue: string): Promise<number> {
  return withBroker(async (channel) => (await channel.checkQueue(queue)).messageCount);
}

/** Takes every ready message off a queue (acked), for assertions on DLQ contents. */
export async function drainQueue(queue: string): Promise<GetMessage[]> {
  return withBroker(async (channel) => {
    const messages: GetMessage[] = [];
    for (;;) {
      const message = await channel.get(queue, { noAck: true });
      if (!message) return messages;
      messages.push(message);
    }
  });
}

/** Deletes a consumer's queue trio and copies exchange, and the exchange a test file declared. */
export async function deleteTopology(exchange: string, queues: readonly string[]): Promise<void> {
  await withBroker(async (channel) => {
    for (const queue of queues) {
      for (const name of [queue, `${queue}.retry`, `${queue}.dlq`]) await channel.deleteQueue(name);
      await channel.deleteExchange(`${queue}.copies`);
    }
    await channel.deleteExchange(exchange);
  });
}
