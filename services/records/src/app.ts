import { createServiceBus, MongoProcessedEventStore, type Subscription } from '@crm/event-bus';
import {
  connectMongo,
  createHttpApp,
  durationToSeconds,
  requireAuth,
  syncIndexes,
  TokenService,
  type Logger,
} from '@crm/server-kit';
import { recordsRoutes } from './api/records.routes';
import type { RecordsConfig } from './config';
import { AppointmentsClient } from './data/appointments.client';
import { AuthClient } from './data/auth.client';
import { ConfigClient } from './data/config.client';
import { recordModels } from './data/record.models';
import { MongoRecordRepository } from './data/record.repository';
import { ViewConfigCache } from './data/view-config.cache';
import { RecordService } from './domain/record.service';
import { recordListingHandlers } from './events/record-listing.consumer';
import { viewConfigHandlers } from './events/view-config.consumer';

/** The records service's consumer queues are `<QUEUE_PREFIX>.records.<purpose>`. */
export const RECORDS_QUEUE_PURPOSES = ['view-config', 'listing'] as const;

/** Wires the records service: database, outbox relay, configuration cache and its feed, routes. */
export function createRecordsService(config: RecordsConfig, logger: Logger) {
  const mongo = connectMongo(config.MONGO_URL, config.MONGO_DB, logger);
  const models = recordModels(mongo.connection);

  const bus = createServiceBus({
    url: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
    logger,
    name: 'records',
  });
  const { connection: amqp, consumer } = bus;
  const relay = bus.outboxRelay([models.Revision]);

  const viewConfigs = new ViewConfigCache(
    new ConfigClient(config.CONFIG_SERVICE_URL, config.UPSTREAM_TIMEOUT_MS),
    config.VIEW_CONFIG_CACHE_TTL_MS,
  );
  const repository = new MongoRecordRepository(models, logger, () => relay.kick());
  const records = new RecordService(
    repository,
    new AppointmentsClient(config.APPOINTMENTS_SERVICE_URL, config.UPSTREAM_TIMEOUT_MS),
    new AuthClient(config.AUTH_SERVICE_URL, config.UPSTREAM_TIMEOUT_MS),
    viewConfigs,
  );
  const requireUser = requireAuth(new TokenService(config.JWT_SECRET, durationToSeconds(config.JWT_TTL)));

  const app = createHttpApp({
    logger,
    readiness: [{ name: 'database', check: mongo.isReady }, bus.readiness],
    routes: (router) => {
      router.use(recordsRoutes(records, requireUser));
    },
  });

  let feeds: Subscription[] = [];

  return {
    app,
    models,
    relay,
    viewConfigs,
    async start() {
      amqp.start();
      await mongo.ready;
      await syncIndexes(mongo.connection);
      const idempotency = new MongoProcessedEventStore(mongo.connection);
      const queue = (purpose: (typeof RECORDS_QUEUE_PURPOSES)[number]) =>
        `${config.QUEUE_PREFIX}.records.${purpose}`;
      feeds = [
        consumer.subscribe({
          queue: queue('view-config'),
          events: viewConfigHandlers(viewConfigs),
          idempotency,
        }),
        consumer.subscribe({
          queue: queue('listing'),
          events: recordListingHandlers(repository),
          idempotency,
        }),
      ];
      relay.start();
    },
    /** Resolves once the configuration and listing feeds are bound to the exchange (tests wait for it). */
    async consuming(timeoutMs?: number) {
      await Promise.all(feeds.map((feed) => feed.ready(timeoutMs)));
    },
    async stop() {
      await relay.stop();
      await consumer.close();
      await amqp.close();
      await mongo.close();
    },
  };
}

export type RecordsService = ReturnType<typeof createRecordsService>;
