import type mongoose from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import {
  AmqpConnection,
  EventConsumer,
  EventPublisher,
  MongoProcessedEventStore,
  type Logger,
  type Subscription,
} from '../../src';
import { AMQP_URL, deleteTopology, thingHappened } from './test-infra';

export interface ThingBus {
  connection: AmqpConnection;
  publisher: EventPublisher;
  /** Pushes every `thingHappened` it handles into the `consumed` it was given, once per event. */
  subscription: Subscription;
  /** Closes all three, deletes the exchange and queue, drops and closes `db`. */
  stop(): Promise<void>;
}

/** A connected publisher and a ready, idempotent subscriber on `exchange`/`queue` (state kept in `db`). */
export async function startThingBus(options: {
  exchange: string;
  queue: string;
  db: mongoose.Connection;
  logger: Logger;
  consumed: EventEnvelope[];
}): Promise<ThingBus> {
  const { exchange, queue, db, logger, consumed } = options;
  // Fast backoff so the tests do not wait long once the broker is back; production defaults are slower.
  const connection = new AmqpConnection({ url: AMQP_URL, logger, initialDelayMs: 100, maxDelayMs: 1_000 });
  await connection.connect();
  const publisher = new EventPublisher({ connection, exchange, logger });
  const subscription = new EventConsumer({ connection, exchange, logger }).subscribe({
    queue,
    idempotency: new MongoProcessedEventStore(db),
    events: [[thingHappened, (event) => void consumed.push(event)]],
  });
  await subscription.ready();
  return {
    connection,
    publisher,
    subscription,
    async stop() {
      await subscription.close();
      await publisher.close();
      await connection.close();
      await deleteTopology(exchange, [queue]);
      await db.dropDatabase();
      await db.close();
    },
  };
}
