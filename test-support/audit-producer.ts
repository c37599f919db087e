import mongoose from 'mongoose';
import { createServiceBus } from '@crm/event-bus';
import { createLogger } from '@crm/server-kit';
import { createAuditTrail, type AuditTrail } from '@crm/server-kit/service';
import { uniqueName } from '@crm/testing';

/**
 * A throwaway "service" that records entries the way every producer does: its own database with an
 * `audit_outbox`, its own outbox relay to the stack's exchange. Nothing of the audit service is used.
 * It connects as the broker user of a service that records accesses (`amqpUrl`, e.g. the stack's
 * `busUrl('records')`): the audit service accepts entries only from those.
 */
export interface Producer {
  trail: AuditTrail;
  /** Documents still in the producer's `audit_outbox` (pending or published-not-swept). */
  outboxSize(): Promise<number>;
  pending(): Promise<number>;
  stop(): Promise<void>;
}

export async function startProducer(options: {
  mongoUrl: string;
  amqpUrl: string;
  exchange: string;
}): Promise<Producer> {
  const logger = createLogger('producer', (process.env.TEST_LOG_LEVEL ?? 'silent') as 'silent');
  const database = uniqueName('producer');
  const connection = await mongoose
    .createConnection(options.mongoUrl, { dbName: database, serverSelectionTimeoutMS: 2000 })
    .asPromise();
  const bus = createServiceBus({
    url: options.amqpUrl,
    exchange: options.exchange,
    logger,
    name: 'producer',
  });
  // The relay is created after the trail (it needs its model); the trail only kicks it after writes.
  const trail = createAuditTrail(connection, { onWrite: () => relay.kick() });
  const relay = bus.outboxRelay([trail.model]);
  bus.connection.start();
  relay.start();
  return {
    trail,
    outboxSize: () => trail.model.countDocuments({}),
    pending: () => trail.model.countDocuments({ 'outbox.0': { $exists: true } }),
    async stop() {
      await relay.stop();
      await bus.connection.close();
      await connection.dropDatabase().catch(() => undefined);
      await connection.close();
    },
  };
}
