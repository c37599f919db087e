import { RECORDS_VIEW } from '@crm/contracts';
import { tableRouter, type Logger } from '@crm/server-kit';
import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import { medicalCertificateFields } from '@crm/view-config';
import { centreProfileHandlers } from './api/centre-profile.routes';
import { configViewHandlers } from './api/config-view.routes';
import type { ConfigServiceConfig } from './config';
import { centreVersionModel } from './data/centre-version.model';
import { MongoCentreVersionRepository } from './data/centre-version.repository';
import { viewVersionModel } from './data/view-version.model';
import { MongoViewVersionRepository } from './data/view-version.repository';
import { CentreProfileService } from './domain/centre-profile.service';
import { ViewConfigService } from './domain/view-config.service';

/**
 * Wires the config service: database, event outbox, routes (changes recorded in the runtime's access
 * trail). `start()` seeds and begins background work.
 */
export function createConfigService(config: ConfigServiceConfig, logger: Logger) {
  const runtime = createServiceRuntime('config', config, logger);
  const models = {
    ViewVersion: viewVersionModel(runtime.connection),
    CentreVersion: centreVersionModel(runtime.connection),
  };
  const relay = runtime.outbox([models.ViewVersion, models.CentreVersion]);

  const views = new ViewConfigService(new MongoViewVersionRepository(models.ViewVersion, runtime.kickOutbox));
  const centre = new CentreProfileService(
    new MongoCentreVersionRepository(models.CentreVersion, runtime.kickOutbox),
  );
  const requireUser = runtime.requireUser();

  /** The centre profile first: the seeded clinical form takes its default prices from it. */
  const seed = async () => {
    if (await centre.seed()) logger.info('centre profile seeded');
    const { prices } = await centre.current();
    if (await views.seed(RECORDS_VIEW, medicalCertificateFields(prices)))
      logger.info({ view: RECORDS_VIEW }, 'view configuration seeded');
  };

  const service = {
    app: runtime.httpApp((router) => {
      const handlers = {
        ...configViewHandlers(views, runtime.audit),
        ...centreProfileHandlers(centre, runtime.audit),
      };
      router.use(tableRouter('config', handlers, requireUser));
    }),
    models,
    views,
    centre,
    relay,
    ...runtime.startAndStop({ seed }),
  };
  return service satisfies ServiceHandle;
}

export type ConfigService = ReturnType<typeof createConfigService>;
