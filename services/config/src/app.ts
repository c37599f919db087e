import { RECORDS_VIEW } from '@crm/contracts';
import { createServiceBus } from '@crm/event-bus';
import {
  connectMongo,
  createHttpApp,
  durationToSeconds,
  requireAuth,
  syncIndexes,
  TokenService,
  type Logger,
} from '@crm/server-kit';
import { MEDICAL_CERTIFICATE_FIELDS } from '@crm/view-config';
import { configViewRoutes } from './api/config-view.routes';
import type { ConfigServiceConfig } from './config';
import { viewVersionModel } from './data/view-version.model';
import { MongoViewVersionRepository } from './data/view-version.repository';
import { ViewConfigService } from './domain/view-config.service';

/** Wires the config service: database, event outbox, routes. `start()` seeds and begins background work. */
export function createConfigService(config: ConfigServiceConfig, logger: Logger) {
  const mongo = connectMongo(config.MONGO_URL, config.MONGO_DB, logger);
  const models = { ViewVersion: viewVersionModel(mongo.connection) };

  const bus = createServiceBus({
    url: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
    logger,
    name: 'config',
  });
  const { connection: amqp } = bus;
  const relay = bus.outboxRelay([models.ViewVersion]);

  const views = new ViewConfigService(new MongoViewVersionRepository(models.ViewVersion, () => relay.kick()));
  const requireUser = requireAuth(new TokenService(config.JWT_SECRET, durationToSeconds(config.JWT_TTL)));

  const app = createHttpApp({
    logger,
    readiness: [{ name: 'database', check: mongo.isReady }, bus.readiness],
    routes: (router) => {
      router.use(configViewRoutes(views, requireUser));
    },
  });

  return {
    app,
    models,
    views,
    relay,
    async start() {
      amqp.start();
      await mongo.ready;
      await syncIndexes(mongo.connection);
      if (await views.seed(RECORDS_VIEW, MEDICAL_CERTIFICATE_FIELDS))
        logger.info({ view: RECORDS_VIEW }, 'view configuration seeded');
      relay.start();
    },
    async stop() {
      await relay.stop();
      await amqp.close();
      await mongo.close();
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;
