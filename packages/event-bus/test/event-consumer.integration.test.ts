import mongoose from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import {
  AmqpConnection,
  createEnvelope,
  EventConsumer,
  EventPublisher,
  InMemoryProcessedEventStore,
  MongoProcessedEventStore,
  processedEventKey,
  SingleLane,
  type ProcessedEventStore,
  type Subscription,
} from '../src';
import { eventually } from '@crm/testing/src/polling';
import { uniqueName } from '@crm/testing/src/names';
import {
  AMQP_URL,
  deleteTopology,
  drainQueue,
  messageCount,
  MONGO_URL,
  recordingLogger,
  TEST_BROKER_USER,
  thingHappened,
  withBroker,
} from './support/test-infra';

jest.setTimeout(30_000);

const exchange = uniqueName('test.consumer.events');
const queues: string[] = [];
const newQueue = (label: string): string => {
  const queue = uniqueName(`test.consumer.${label}`);
  queues.push(queue);
  return queue;
};

const logger = recordingLogger();
let connection: AmqpConnection;
let publisher: EventPublisher;
let consumer: EventConsumer;
let db: mongoose.Connection;
const subscriptions: Subscription[] = [];

beforeAll(async () => {
  connection = new AmqpConnection({ url: AMQP_URL, logger, initialDelayMs: 100, maxDelayMs: 1_000 });
  await connection.connect();
  publisher = new EventPublisher({ connection, exchange, logger });
  consumer = new EventConsumer({ connection, exchange, logger });
  db = await mongoose.createConnection(MONGO_URL, { dbName: uniqueName('event_bus_consumer') }).asPromise();
}, 60_000);

afterAll(async () => {
  await Promise.all(subscriptions.map((s) => s.close()));
  await publisher?.close();
  await connection?.close();
  await deleteTopology(exchange, queues);
  await db?.dropDatabase();
  await db?.close();
});

function track(subscription: Subscription): Subscription {
  subscriptions.push(subscription);
  return subscription;
}

describe('EventConsumer', () => {
  it('gives a message again to the next consumer when one dies before acking, and the side effect happens once', async () => {
    const queue = newQueue('crash');
    const store = new MongoProcessedEventStore(db);
    const sideEffects = db.collection<{ eventId: string; by: string }>('side_effects');

    // Consumer A handles the event and records it, then its connection goes away before the ack.
    const connectionA = new AmqpConnection({ url: AMQP_URL, logger });
    await connectionA.connect();
    let died!: () => void;
    const diedBeforeAck = new Promise<void>((resolve) => (died = resolve));
    const dyingStore: ProcessedEventStore = {
      has: (key) => store.has(key),
      markProcessed: async (key) => {
        await store.markProcessed(key);
        await connectionA.close(); // closes the channel with the message still unacked
        died();
      },
    };
    const subscriptionA = new EventConsumer({ connection: connectionA, exchange, logger }).subscribe({
      queue,
      idempotency: dyingStore,
      events: [
        [thingHappened, async (event) => void (await sideEffects.insertOne({ eventId: event.id, by: 'A' }))],
      ],
    });
    await subscriptionA.ready();

    const published = await publisher.publish(
      thingHappened,
      { thingId: 't1', n: 1 },
      { correlationId: 'crash-test' },
    );
    await diedBeforeAck;

    // Consumer B gets the redelivery, recognises the event id and acks without running its handler.
    const duplicatesSeen: string[] = [];
    const handledByB: EventEnvelope[] = [];
    const subscriptionB = track(
      consumer.subscribe({
        queue,
        idempotency: {
          has: async (key) => {
            const seen = await store.has(key);
            if (seen) duplicatesSeen.push(key);
            return seen;
          },
          markProcessed: (key) => store.markProcessed(key),
        },
        events: [
          [
            thingHappened,
            async (event) => {
              handledByB.push(event);
              await sideEffects.insertOne({ eventId: event.id, by: 'B' });
            },
          ],
        ],
      }),
    );
    await subscriptionB.ready();

    await eventually(
      () => duplicatesSeen.includes(processedEventKey(queue, published.id)),
      15_000,
      'B to receive the redelivered event',
    );
    expect(handledByB).toHaveLength(0);
    expect(await sideEffects.countDocuments({ eventId: published.id })).toBe(1);
    expect(await store.has(processedEventKey(queue, published.id))).toBe(true);
    await subscriptionB.close();
    expect(await messageCount(queue)).toBe(0); // acked by B, not requeued again
  });

  it('moves a message that fails validation to <queue>.dlq and keeps consuming the messages after it', async () => {
    const queue = newQueue('invalid');
    const received: EventEnvelope[] = [];
    const subscription = track(
      consumer.subscribe({
        queue,
        prefetch: 1, // the next message only arrives once the invalid one was dealt with
        idempotency: new InMemoryProcessedEventStore(),
        events: [[thingHappened, (event) => void received.push(event)]],
      }),
    );
    await subscription.ready();

    const badData = {
      ...createEnvelope(thingHappened, { thingId: 't', n: 1 }, 'c'),
      data: { thingId: '', n: 'one' },
    };
    await withBroker(async (channel) => {
      const properties = { persistent: true, userId: TEST_BROKER_USER };
      channel.publish(exchange, thingHappened.name, Buffer.from('{not json'), properties);
      channel.publish(exchange, thingHappened.name, Buffer.from(JSON.stringify(badData)), properties);
      channel.publish(
        exchange,
        thingHappened.name,
        Buffer.from(JSON.stringify({ hello: 'world' })),
        properties,
      );
      await channel.checkQueue(queue); // a round trip on the same channel: the publishes above are routed
    });
    const valid = [
      await publisher.publish(thingHappened, { thingId: 't2', n: 2 }, { correlationId: 'c' }),
      await publisher.publish(thingHappened, { thingId: 't3', n: 3 }, { correlationId: 'c' }),
    ];

    await eventually(() => received.length === 2, 15_000, 'both valid events');
    expect(received.map((e) => e.id)).toEqual(valid.map((e) => e.id));
    expect(received[0]!.data).toEqual({ thingId: 't2', n: 2 });

    const deadLettered = await eventually(
      async () => ((await messageCount(`${queue}.dlq`)) === 3 ? drainQueue(`${queue}.dlq`) : undefined),
      15_000,
      'three messages in the DLQ',
      { retryOnError: true },
    );
    const errors = deadLettered.map((m) => String(m.properties.headers?.['x-error']));
    expect(errors[0]).toMatch(/invalid JSON/);
    expect(errors[1]).toMatch(/invalid data: data\.thingId: .*; data\.n: /);
    expect(errors[2]).toMatch(/invalid envelope/);
    expect(deadLettered[0]!.content.toString()).toBe('{not json'); // original bytes kept for inspection
    expect(deadLettered[1]!.properties.headers?.['x-original-routing-key']).toBe(thingHappened.name);
    expect(await messageCount(queue)).toBe(0);
  });

  it('sends a message whose handler always throws to the DLQ after maxAttempts, waiting the retry delays in between', async () => {
    const queue = newQueue('failing');
    const attempts: { attempt: number; at: number }[] = [];
    const store = new InMemoryProcessedEventStore();
    const subscription = track(
      consumer.subscribe({
        queue,
        maxAttempts: 3,
        retryDelayMs: [300, 600],
        idempotency: store,
        events: [
          [
            thingHappened,
            (_event, context) => {
              attempts.push({ attempt: context.attempt, at: Date.now() });
              throw new Error('downstream unavailable');
            },
          ],
        ],
      }),
    );
    await subscription.ready();

    const published = await publisher.publish(thingHappened, { thingId: 't4', n: 4 }, { correlationId: 'c' });

    const [dead] = await eventually(
      async () => ((await messageCount(`${queue}.dlq`)) === 1 ? drainQueue(`${queue}.dlq`) : undefined),
      15_000,
      'the message in the DLQ',
      { retryOnError: true },
    );
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    // Retries wait at least the configured delay (TTL in the retry queue); allow timer granularity.
    expect(attempts[1]!.at - attempts[0]!.at).toBeGreaterThanOrEqual(280);
    expect(attempts[2]!.at - attempts[1]!.at).toBeGreaterThanOrEqual(580);
    expect(dead!.properties.messageId).toBe(published.id);
    expect(dead!.properties.headers?.['x-error']).toMatch(/failed 3 times: Error: downstream unavailable/);
    expect(dead!.properties.headers?.['x-attempt']).toBe(3);
    // The copy says who published the original; it carries no user_id of its own (the broker would
    // refuse the publisher's name from the consumer's connection).
    expect(dead!.properties.headers?.['x-published-by']).toBe(TEST_BROKER_USER);
    expect(dead!.properties.userId).toBeUndefined();
    expect(JSON.parse(dead!.content.toString()).id).toBe(published.id);
    expect(await messageCount(queue)).toBe(0);
    expect(await messageCount(`${queue}.retry`)).toBe(0);
    expect(await store.has(processedEventKey(queue, published.id))).toBe(false);
  });

  it('keeps a dead letter only for deadLetterTtlMs: the broker drops it afterwards', async () => {
    const queue = newQueue('dead-ttl');
    const subscription = track(
      consumer.subscribe({
        queue,
        maxAttempts: 1,
        deadLetterTtlMs: 1500,
        idempotency: new InMemoryProcessedEventStore(),
        events: [
          [
            thingHappened,
            () => {
              throw new Error('always fails');
            },
          ],
        ],
      }),
    );
    await subscription.ready();
    await publisher.publish(thingHappened, { thingId: 't-ttl', n: 1 }, { correlationId: 'c' });

    await eventually(
      async () => (await messageCount(`${queue}.dlq`)) === 1,
      15_000,
      'the message in the DLQ',
      { retryOnError: true },
    );
    const seenAt = Date.now();
    await eventually(async () => (await messageCount(`${queue}.dlq`)) === 0, 15_000, 'the DLQ to drop it', {
      retryOnError: true,
    });
    expect(Date.now() - seenAt).toBeLessThan(5_000);
  });

  it('succeeds on a later attempt after a failure, without a DLQ entry', async () => {
    const queue = newQueue('flaky');
    let calls = 0;
    const handled: number[] = [];
    const subscription = track(
      consumer.subscribe({
        queue,
        retryDelayMs: [100],
        idempotency: new InMemoryProcessedEventStore(),
        events: [
          [
            thingHappened,
            (event, context) => {
              calls++;
              if (context.attempt === 1) throw new Error('first time fails');
              handled.push(event.data.n);
            },
          ],
        ],
      }),
    );
    await subscription.ready();

    await publisher.publish(thingHappened, { thingId: 't5', n: 5 }, { correlationId: 'c' });

    await eventually(() => handled.length === 1, 15_000, 'the second attempt to succeed');
    expect(calls).toBe(2);
    expect(await messageCount(`${queue}.dlq`)).toBe(0);
  });

  it('records processed events in MongoDB and treats a second mark as already done', async () => {
    const store = new MongoProcessedEventStore(db, { collection: 'processed_events_direct' });
    const key = processedEventKey('some.queue', 'e-1');
    expect(await store.has(key)).toBe(false);
    await store.markProcessed(key);
    await expect(store.markProcessed(key)).resolves.toBeUndefined(); // duplicate key: another delivery won
    expect(await store.has(key)).toBe(true);
    const stored = await db.collection('processed_events_direct').findOne({ _id: key as never });
    expect(stored?.processedAt).toBeInstanceOf(Date);
  });

  it('lets one process claim an event: others see busy, then processed; a dead holder is taken over', async () => {
    const collection = 'processed_events_claims';
    const replicaA = new MongoProcessedEventStore(db, { collection });
    const replicaB = new MongoProcessedEventStore(db, { collection });
    const key = processedEventKey('some.queue', uniqueName('e-claim'));

    const race = await Promise.all([replicaA.claim(key, 60_000), replicaB.claim(key, 60_000)]);
    expect(race.sort()).toEqual(['busy', 'claimed']);
    const [holder, other] = race[0] === 'claimed' ? [replicaA, replicaB] : [replicaB, replicaA];
    expect(await other.has(key)).toBe(false); // claimed is not processed
    await holder.markProcessed(key);
    expect(await other.claim(key, 60_000)).toBe('processed');
    expect(await other.has(key)).toBe(true);

    // A holder that died: its lease runs out and the other replica takes the event over. (Unique
    // keys: a second try of this test must not meet the first one's; a lease long enough that a
    // loaded machine still asks within it.)
    const orphan = processedEventKey('some.queue', uniqueName('e-orphan'));
    expect(await replicaA.claim(orphan, 1_000)).toBe('claimed');
    expect(await replicaB.claim(orphan, 60_000)).toBe('busy');
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(await replicaB.claim(orphan, 60_000)).toBe('claimed');

    // A released claim (handler failed) is free at once.
    const failed = processedEventKey('some.queue', uniqueName('e-failed'));
    expect(await replicaA.claim(failed, 60_000)).toBe('claimed');
    await replicaA.release(failed);
    expect(await replicaB.claim(failed, 60_000)).toBe('claimed');
  });

  it('runs the handler once when two replicas each receive a copy of the same event at the same moment', async () => {
    const queue = newQueue('replicas');
    const collection = 'processed_events_replicas';
    // Two connections and two stores: as two processes would have (the in-process guard does not apply).
    const second = new AmqpConnection({ url: AMQP_URL, logger, initialDelayMs: 100, maxDelayMs: 1_000 });
    await second.connect();
    const secondConsumer = new EventConsumer({ connection: second, exchange, logger });
    const handledBy: string[] = [];
    const slowHandler = (name: string) => async () => {
      handledBy.push(name);
      await new Promise((resolve) => setTimeout(resolve, 150)); // an SMTP send, say
    };
    const options = (name: string) => ({
      queue,
      prefetch: 1,
      busyRetryMs: 200,
      idempotency: new MongoProcessedEventStore(db, { collection }),
      events: [[thingHappened, slowHandler(name)]] as const,
    });
    const a = track(consumer.subscribe(options('A')));
    const b = secondConsumer.subscribe(options('B'));
    try {
      await Promise.all([a.ready(), b.ready()]);
      // Two relays published the same envelopes: each id arrives twice, back to back.
      const envelopes = Array.from({ length: 10 }, (_, n) =>
        createEnvelope(thingHappened, { thingId: `r${n}`, n }, 'c'),
      );
      for (const envelope of envelopes) {
        await publisher.publishEnvelope(envelope);
        await publisher.publishEnvelope(envelope);
      }
      await eventually(
        async () => {
          const done = await db.collection(collection).countDocuments({ processedAt: { $exists: true } });
          return (
            done === 10 && (await messageCount(queue)) === 0 && (await messageCount(`${queue}.retry`)) === 0
          );
        },
        15_000,
        'every event handled and both copies settled',
        { retryOnError: true },
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(handledBy).toHaveLength(10);
      expect(await messageCount(`${queue}.dlq`)).toBe(0);
    } finally {
      await b.close();
      await second.close();
    }
  });

  it('runs the handlers of subscriptions sharing a lane one at a time, each with its processed mark', async () => {
    const lane = new SingleLane();
    const store = new MongoProcessedEventStore(db, { collection: 'processed_events_lane' });
    let running = 0;
    let mostAtOnce = 0;
    const handled: number[] = [];
    const send = async (n: number) => {
      running++;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise((resolve) => setTimeout(resolve, 20)); // an SMTP send, say
      handled.push(n);
      running--;
    };
    const [first, second] = [newQueue('lane-a'), newQueue('lane-b')].map((queue) =>
      track(
        consumer.subscribe({
          queue,
          lane,
          prefetch: 5,
          idempotency: store,
          events: [[thingHappened, (event) => send(event.data.n)]],
        }),
      ),
    );
    await Promise.all([first.ready(), second.ready()]);

    await Promise.all(
      Array.from({ length: 12 }, (_, n) =>
        publisher.publish(thingHappened, { thingId: `l${n}`, n }, { correlationId: 'c' }),
      ),
    );

    // Each queue is bound to the same event: 12 events × 2 subscriptions.
    await eventually(() => handled.length === 24, 15_000, 'every copy handled');
    expect(mostAtOnce).toBe(1);
    // Every handler has run, but each one's processed mark is written after it returns: wait for them.
    await eventually(
      async () =>
        (await db.collection('processed_events_lane').countDocuments({ processedAt: { $exists: true } })) ===
        24,
      15_000,
      'every processed mark',
      { retryOnError: true },
    );
  });
});

describe('who may publish an event', () => {
  /** The same data, but a contract naming another broker user as its only publisher. */
  const someoneElses = { ...thingHappened, publishers: ['someone-else'] };

  it('stamps the broker user on every message it publishes (user_id, validated by RabbitMQ)', async () => {
    const queue = newQueue('stamped');
    await withBroker(async (channel) => {
      await channel.assertQueue(queue, { durable: true });
      await channel.bindQueue(queue, exchange, thingHappened.name);
    });
    const published = await publisher.publish(thingHappened, { thingId: 's1', n: 1 }, { correlationId: 'c' });
    const [message] = await eventually(
      async () => {
        const messages = await drainQueue(queue);
        return messages.length > 0 ? messages : undefined;
      },
      15_000,
      'the published message',
      { retryOnError: true },
    );
    expect(message!.properties.messageId).toBe(published.id);
    expect(message!.properties.userId).toBe(TEST_BROKER_USER);
  });

  it('drops, without retrying, an event without user_id or from a user its contract does not name, and keeps consuming', async () => {
    const queue = newQueue('forged');
    const handled: string[] = [];
    const subscription = track(
      consumer.subscribe({
        queue,
        prefetch: 1,
        idempotency: new InMemoryProcessedEventStore(),
        events: [[thingHappened, (event) => void handled.push(event.data.thingId)]],
      }),
    );
    const foreign = track(
      consumer.subscribe({
        queue: newQueue('foreign'),
        idempotency: new InMemoryProcessedEventStore(),
        events: [[someoneElses, (event) => void handled.push(`foreign:${event.data.thingId}`)]],
      }),
    );
    await Promise.all([subscription.ready(), foreign.ready()]);

    const anonymous = createEnvelope(thingHappened, { thingId: 'anonymous', n: 1 }, 'c');
    await withBroker(async (channel) => {
      channel.publish(exchange, thingHappened.name, Buffer.from(JSON.stringify(anonymous)), {
        persistent: true,
      });
      await channel.checkQueue(queue);
    });
    // Genuine for the first queue; for the second, its contract names another publisher.
    await publisher.publish(thingHappened, { thingId: 'genuine', n: 2 }, { correlationId: 'c' });

    await eventually(() => handled.includes('genuine'), 15_000, 'the genuine event');
    // The first queue refuses the anonymous copy; the second refuses both (its contract names another publisher).
    await eventually(
      () => subscription.refusedCount() === 1 && foreign.refusedCount() === 2,
      15_000,
      'the refusals counted',
    );
    await foreign.close();
    expect(handled).toEqual(['genuine']);
    expect(consumer.refusedCount()).toBeGreaterThanOrEqual(1);
    for (const name of [queue, `${queue}.retry`, `${queue}.dlq`]) expect(await messageCount(name)).toBe(0);
    const refusals = logger.find('message refused: not sent by a publisher of its event; dropped');
    expect(refusals.map((entry) => entry.obj)).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ queue, eventId: anonymous.id, publishedBy: undefined }),
        expect.objectContaining({ publishedBy: TEST_BROKER_USER, publishers: ['someone-else'] }),
      ]),
    );
    // Names and ids only: never the body.
    expect(JSON.stringify(refusals)).not.toContain('anonymous"');
  });

  it('keeps the original publisher across retries, so a retried event is still accepted', async () => {
    const queue = newQueue('retried');
    const attempts: number[] = [];
    const subscription = track(
      consumer.subscribe({
        queue,
        retryDelayMs: [100, 100],
        idempotency: new InMemoryProcessedEventStore(),
        events: [
          [
            thingHappened,
            (_event, context) => {
              attempts.push(context.attempt);
              if (context.attempt < 3) throw new Error('not yet');
            },
          ],
        ],
      }),
    );
    await subscription.ready();
    await publisher.publish(thingHappened, { thingId: 'retried', n: 1 }, { correlationId: 'c' });
    await eventually(() => attempts.length === 3, 15_000, 'the third attempt');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(attempts).toEqual([1, 2, 3]);
    expect(subscription.refusedCount()).toBe(0);
  });

  it('trusts x-published-by only on copies: on a message from the events exchange it is ignored', async () => {
    const queue = newQueue('header');
    const handled: string[] = [];
    const subscription = track(
      consumer.subscribe({
        queue,
        idempotency: new InMemoryProcessedEventStore(),
        events: [[someoneElses, (event) => void handled.push(event.data.thingId)]],
      }),
    );
    await subscription.ready();
    const forged = createEnvelope(someoneElses, { thingId: 'claims-someone-else', n: 1 }, 'c');
    await withBroker(async (channel) => {
      channel.publish(exchange, forged.name, Buffer.from(JSON.stringify(forged)), {
        persistent: true,
        userId: TEST_BROKER_USER,
        headers: { 'x-published-by': 'someone-else' },
      });
      await channel.checkQueue(queue);
    });
    await eventually(() => subscription.refusedCount() === 1, 15_000, 'the refusal');
    expect(handled).toEqual([]);
  });

  it('refuses to subscribe to an event whose contract does not list this user as a consumer', () => {
    const notMine = { ...thingHappened, consumers: ['someone-else'] };
    expect(() =>
      consumer.subscribe({
        queue: newQueue('not-mine'),
        idempotency: new InMemoryProcessedEventStore(),
        events: [[notMine, () => undefined]],
      }),
    ).toThrow(/does not list it as a consumer/);
  });

  it('replaces a retry queue an older version declared (dead-lettering through the default exchange) once it is empty', async () => {
    const queue = newQueue('legacy');
    await withBroker(async (channel) => {
      await channel.assertQueue(`${queue}.retry`, {
        durable: true,
        deadLetterExchange: '',
        deadLetterRoutingKey: queue,
      });
    });
    const handled: number[] = [];
    let failFirst = true;
    const subscription = track(
      consumer.subscribe({
        queue,
        retryDelayMs: [100],
        idempotency: new InMemoryProcessedEventStore(),
        events: [
          [
            thingHappened,
            (event) => {
              if (failFirst) {
                failFirst = false;
                throw new Error('once');
              }
              handled.push(event.data.n);
            },
          ],
        ],
      }),
    );
    await subscription.ready(20_000);
    await publisher.publish(thingHappened, { thingId: 'legacy', n: 7 }, { correlationId: 'c' });
    await eventually(() => handled.length === 1, 15_000, 'the retried event');
    expect(logger.find('outdated retry queue deleted; declaring it again').length).toBeGreaterThan(0);
  });
});
