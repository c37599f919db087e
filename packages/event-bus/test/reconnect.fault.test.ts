/** Stops and starts RabbitMQ: runs in the serial fault phase of `npm test` (see jest.config.js). */
import mongoose from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import {
  AmqpConnection,
  ConnectionTimeoutError,
  createEnvelope,
  EventValidationError,
  PublishTimeoutError,
  EventPublisher,
  OutboxRelay,
  withOutbox,
  type Subscription,
} from '../src';
import { eventually, sleep } from '@crm/testing/src/polling';
import { uniqueName } from '@crm/testing/src/names';
import { ensureBrokerRunning, rabbitmqctl } from '../../../test-support/faults';
import { MONGO_URL, recordingLogger, thingHappened } from './support/test-infra';
import { startThingBus, type ThingBus } from './support/thing-bus';

// These tests stop the shared local RabbitMQ (`rabbitmqctl stop_app`) and always start it again.
jest.setTimeout(60_000);

const exchange = uniqueName('test.reconnect.events');
const queue = uniqueName('test.reconnect.consumer');
const logger = recordingLogger();
let connection: AmqpConnection;
let publisher: EventPublisher;
let subscription: Subscription;
let db: mongoose.Connection;
let bus: ThingBus;
const consumed: EventEnvelope[] = [];
const consumedCount = (id: string): number => consumed.filter((e) => e.id === id).length;

beforeAll(async () => {
  await ensureBrokerRunning(); // in case an earlier, killed run left it stopped
  db = await mongoose.createConnection(MONGO_URL, { dbName: uniqueName('event_bus_reconnect') }).asPromise();
  bus = await startThingBus({ exchange, queue, db, logger, consumed });
  ({ connection, publisher, subscription } = bus);
}, 120_000); // waits until this package's other integration files are done with the broker

afterAll(async () => {
  await ensureBrokerRunning();
  await bus?.stop();
});

/** Runs `whileDown` with RabbitMQ stopped; the broker is started again whatever happens. */
async function withBrokerStopped<T>(whileDown: () => Promise<T>): Promise<T> {
  try {
    await rabbitmqctl('stop_app');
    await eventually(() => !connection.isConnected(), 15_000, 'the connection to notice the broker is gone');
    return await whileDown();
  } finally {
    await rabbitmqctl('start_app'); // unconditionally: the broker must never be left stopped
  }
}

describe('recovery after the broker goes away', () => {
  it('delivers an event published while RabbitMQ is stopped once it is started again, and the consumer resumes by itself', async () => {
    const before = await publisher.publish(
      thingHappened,
      { thingId: 'before', n: 1 },
      { correlationId: 'reconnect' },
    );
    await eventually(() => consumedCount(before.id) === 1, 15_000, 'the event published before the outage');

    let publishedWhileDown!: Promise<EventEnvelope>;
    await withBrokerStopped(async () => {
      expect(publisher.isReady()).toBe(false);
      expect(subscription.isConsuming()).toBe(false);
      publishedWhileDown = publisher.publish(
        thingHappened,
        { thingId: 'during', n: 2 },
        { correlationId: 'reconnect', timeoutMs: 45_000 },
      );
      let settled = false;
      publishedWhileDown.then(
        () => (settled = true),
        () => (settled = true),
      );
      await sleep(1_000);
      expect(settled).toBe(false); // waiting for the broker, not failing
    });

    const during = await publishedWhileDown; // resolves only once the broker confirmed it
    expect(connection.isConnected()).toBe(true);
    await eventually(() => consumedCount(during.id) === 1, 15_000, 'the event published during the outage');
    expect(subscription.isConsuming()).toBe(true);
    expect(logger.find('AMQP connection lost; reconnecting').length).toBeGreaterThanOrEqual(1);
    expect(logger.find('AMQP connection restored').length).toBeGreaterThanOrEqual(1);

    const after = await publisher.publish(
      thingHappened,
      { thingId: 'after', n: 3 },
      { correlationId: 'reconnect' },
    );
    await eventually(() => consumedCount(after.id) === 1, 15_000, 'an event published after recovery');
  });

  it('keeps an outbox event while RabbitMQ is stopped, logs the outage once, and delivers it after the restart', async () => {
    const relayLogger = recordingLogger();
    const Things = db.collection<{ _id: string; outbox?: unknown[] }>('things');
    const relay = new OutboxRelay({
      publisher,
      sources: [Things],
      intervalMs: 200,
      publishTimeoutMs: 500,
      logger: relayLogger,
    }).start();
    try {
      const event = createEnvelope(thingHappened, { thingId: 'outbox-during', n: 4 }, 'reconnect-outbox');
      await withBrokerStopped(async () => {
        await Things.insertOne(withOutbox({ _id: 'outbox-during' }, event));
        relay.kick();
        await eventually(
          () => relayLogger.find('outbox relay pass failed again').length >= 2,
          15_000,
          'a few failed relay passes',
        );
        expect((await Things.findOne({ _id: 'outbox-during' }))?.outbox).toHaveLength(1);
      });

      await eventually(() => consumedCount(event.id) === 1, 30_000, 'the outbox event to be consumed');
      await eventually(
        async () => ((await Things.findOne({ _id: 'outbox-during' }))?.outbox ?? []).length === 0,
        15_000,
        'the outbox entry to be removed',
        { retryOnError: true },
      );
      expect(relayLogger.find('outbox relay cannot publish; retrying until it can')).toHaveLength(1);
      expect(relayLogger.find('outbox relay publishing again')).toHaveLength(1);
      expect(relayLogger.entries.filter((e) => e.level === 'warn' || e.level === 'error')).toHaveLength(1);
    } finally {
      await relay.stop();
    }
  });
});

describe('AmqpConnection without a broker', () => {
  it('keeps retrying in the background, reports not connected, and stops retrying on close', async () => {
    const unreachableLogger = recordingLogger();
    const unreachable = new AmqpConnection({
      url: 'amqp://guest:guest@127.0.0.1:1',
      logger: unreachableLogger,
      initialDelayMs: 20,
      maxDelayMs: 100,
    });

    await expect(unreachable.connect(500)).rejects.toBeInstanceOf(ConnectionTimeoutError);
    expect(unreachable.isConnected()).toBe(false);
    expect(unreachableLogger.find('AMQP reconnect scheduled').length).toBeGreaterThan(2);
    expect(unreachableLogger.find('AMQP broker unreachable; retrying in the background')).toHaveLength(1);

    await unreachable.close();
    const attempts = unreachableLogger.find('AMQP reconnect scheduled').length;
    await sleep(300);
    expect(unreachableLogger.find('AMQP reconnect scheduled').length).toBe(attempts);
  });

  it('makes a publish wait for the broker only up to its timeout, and rejects invalid data without waiting', async () => {
    const unreachable = new AmqpConnection({
      url: 'amqp://guest:guest@127.0.0.1:1',
      initialDelayMs: 20,
      maxDelayMs: 100,
    }).start();
    const offline = new EventPublisher({ connection: unreachable, exchange });
    try {
      const startedAt = Date.now();
      await expect(
        offline.publish(thingHappened, { thingId: 'x', n: 1 }, { correlationId: 'c', timeoutMs: 300 }),
      ).rejects.toBeInstanceOf(PublishTimeoutError);
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);

      await expect(
        offline.publish(thingHappened, { thingId: '', n: 1.5 }, { correlationId: 'c' }),
      ).rejects.toBeInstanceOf(EventValidationError);
    } finally {
      await offline.close();
      await unreachable.close();
    }
  });
});
