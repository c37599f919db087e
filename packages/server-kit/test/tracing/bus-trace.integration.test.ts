// First: the SDK (in-memory spans) before the bus loads.
import { spans } from './in-memory';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import mongoose from 'mongoose';
import {
  AmqpConnection,
  createEnvelope,
  EventConsumer,
  EventPublisher,
  InMemoryProcessedEventStore,
  OutboxRelay,
  TRACEPARENT_HEADER,
  withOutbox,
  type Subscription,
} from '@crm/event-bus';
import { eventually, uniqueName } from '@crm/testing';
import { parentIdOf, type ReadableSpan } from '../../tracing-testing';
import {
  AMQP_URL,
  deleteTopology,
  MONGO_URL,
  thingHappened,
} from '../../../event-bus/test/support/test-infra';
import { thingModel } from '../../../event-bus/test/support/thing.model';

/**
 * The bus's trace context with a real RabbitMQ and database: an outbox entry written inside a span
 * keeps its traceparent, the relay's publish span is that span's child, the consumer's span the
 * publish span's child; a failed attempt records its retry, the next attempt is its child, and a
 * message given up on records its dead-lettering, all in the one trace.
 */
jest.setTimeout(40_000);

const exchange = uniqueName('test.trace.events');
const queues: string[] = [];
const newQueue = (label: string) => {
  const queue = uniqueName(`test.trace.${label}`);
  queues.push(queue);
  return queue;
};
let connection: AmqpConnection;
let publisher: EventPublisher;
let consumer: EventConsumer;
let db: mongoose.Connection;
const subscriptions: Subscription[] = [];

beforeAll(async () => {
  connection = new AmqpConnection({ url: AMQP_URL, initialDelayMs: 100, maxDelayMs: 1_000 });
  await connection.connect();
  publisher = new EventPublisher({ connection, exchange });
  consumer = new EventConsumer({ connection, exchange });
  db = await mongoose.createConnection(MONGO_URL, { dbName: uniqueName('trace_bus') }).asPromise();
}, 60_000);

afterAll(async () => {
  await Promise.all(subscriptions.map((s) => s.close()));
  await publisher?.close();
  await connection?.close();
  await deleteTopology(exchange, queues);
  await db?.dropDatabase();
  await db?.close();
});

const tracer = trace.getTracer('test');
const inTrace = (traceId: string) =>
  spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
const named = (traceId: string, name: string) => inTrace(traceId).filter((s) => s.name === name);
const idOf = (span: ReadableSpan) => span.spanContext().spanId;

describe('trace context on the bus', () => {
  it('stores the writing span with the outbox entry; publish and consume continue its trace', async () => {
    const Thing = thingModel(db);
    const queue = newQueue('outbox');
    const handled: string[] = [];
    const subscription = consumer.subscribe({
      queue,
      idempotency: new InMemoryProcessedEventStore(),
      events: [[thingHappened, async (event) => void handled.push(event.id)]],
    });
    subscriptions.push(subscription);
    await subscription.ready();

    // "The request": a span active while the document and its event are written.
    const id = uniqueName('thing');
    const request = await tracer.startActiveSpan('request', async (span) => {
      const envelope = createEnvelope(thingHappened, { thingId: id, n: 1 }, 'corr');
      await Thing.create(withOutbox({ _id: id, name: 'traced' }, envelope));
      span.end();
      return span;
    });
    const stored = await Thing.collection.findOne({ _id: id as never });
    const traceparent = (stored?.outbox as Array<Record<string, unknown>>)[0]![TRACEPARENT_HEADER];
    expect(traceparent).toBe(`00-${request.spanContext().traceId}-${idOf(request as never)}-01`);

    const relay = new OutboxRelay({ publisher, sources: [Thing] });
    expect(await relay.runOnce()).toMatchObject({ published: 1, failed: false });
    await eventually(async () => handled.length === 1, 10_000, 'event handled');
    const traceId = request.spanContext().traceId;
    const publish = await eventually(
      async () => {
        return named(traceId, `publish ${thingHappened.name}`)[0];
      },
      5_000,
      'publish span',
    );
    expect(publish.kind).toBe(SpanKind.PRODUCER);
    expect(parentIdOf(publish)).toBe(idOf(request as never));
    const process = await eventually(
      async () => {
        return named(traceId, `process ${thingHappened.name}`)[0];
      },
      5_000,
      'consumer span',
    );
    expect(process.kind).toBe(SpanKind.CONSUMER);
    expect(parentIdOf(process)).toBe(idOf(publish));
    expect(process.attributes['crm.delivery.outcome']).toBe('handled');
    // The published body is the envelope alone: the trace context travels in the headers.
    expect(await Thing.collection.findOne({ _id: id as never, outbox: { $exists: true } })).toBeNull();
  });

  it('records a failed attempt and its retry, and a message given up on, in the publisher’s trace', async () => {
    const flaky = newQueue('retry');
    const broken = newQueue('dead');
    let calls = 0;
    for (const [queue, handler] of [
      [
        flaky,
        async () => {
          if (++calls === 1) throw new Error('first attempt fails');
        },
      ],
      [
        broken,
        async () => {
          throw new Error('always fails');
        },
      ],
    ] as const) {
      const subscription = consumer.subscribe({
        queue,
        idempotency: new InMemoryProcessedEventStore(),
        maxAttempts: 2,
        retryDelayMs: [200],
        events: [[thingHappened, handler]],
      });
      subscriptions.push(subscription);
      await subscription.ready();
    }
    const root = await tracer.startActiveSpan('publisher', async (span) => {
      await publisher.publish(thingHappened, { thingId: 'x', n: 2 }, { correlationId: 'retry' });
      span.end();
      return span;
    });
    const traceId = root.spanContext().traceId;
    const attemptsOn = (queue: string) =>
      named(traceId, `process ${thingHappened.name}`)
        .filter((s) => s.attributes['messaging.destination.name'] === queue)
        .sort(
          (a, b) =>
            Number(a.attributes['crm.delivery.attempt']) - Number(b.attributes['crm.delivery.attempt']),
        );

    const [first, second] = await eventually(
      async () => {
        const found = attemptsOn(flaky);
        return found.length === 2 && found;
      },
      15_000,
      'two attempts on the flaky queue',
    );
    expect(parentIdOf(first!)).toBe(idOf(root as never));
    expect(first!.status.code).toBe(SpanStatusCode.ERROR);
    expect(first!.events.map((e) => e.name)).toEqual(['retry scheduled']);
    expect(first!.attributes['crm.delivery.outcome']).toBe('retry');
    expect(parentIdOf(second!)).toBe(idOf(first!));
    expect(second!.attributes['crm.delivery.outcome']).toBe('handled');

    const [tried, givenUp] = await eventually(
      async () => {
        const found = attemptsOn(broken);
        return found.length === 2 && found;
      },
      15_000,
      'two attempts on the broken queue',
    );
    expect(tried!.events.map((e) => e.name)).toEqual(['retry scheduled']);
    expect(parentIdOf(givenUp!)).toBe(idOf(tried!));
    expect(givenUp!.attributes['crm.delivery.outcome']).toBe('dead-lettered');
    const dead = givenUp!.events.find((e) => e.name === 'dead-lettered');
    expect(dead?.attributes?.['crm.delivery.queue']).toBe(`${broken}.dlq`);
    expect(givenUp!.status.code).toBe(SpanStatusCode.ERROR);
  });
});
