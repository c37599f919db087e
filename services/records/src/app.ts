import { tableRouter, type Logger } from '@crm/server-kit';
import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import { recordsHandlers } from './api/records.routes';
import type { RecordsConfig } from './config';
import { AppointmentsClient } from './data/appointments.client';
import { AuthClient } from './data/auth.client';
import { ConfigClient } from './data/config.client';
import { recordModels } from './data/record.models';
import { RecordErasure } from './data/record-erasure';
import { MongoRecordRepository } from './data/record.repository';
import { ViewConfigCache } from './data/view-config.cache';
import { RecordService } from './domain/record.service';
import { patientErasureHandlers } from './events/patient-erasure.consumer';
import { recordListingHandlers } from './events/record-listing.consumer';
import { viewConfigHandlers } from './events/view-config.consumer';

/** The records service's consumer queues are `<QUEUE_PREFIX>.records.<purpose>`. */
export const RECORDS_QUEUE_PURPOSES = ['view-config', 'listing', 'erasure'] as const;

/**
 * Wires the records service: database, outbox relay, configuration cache and its feed, routes
 * (every access recorded in the runtime's access trail).
 */
export function createRecordsService(config: RecordsConfig, logger: Logger) {
  const runtime = createServiceRuntime('records', config, logger);
  const models = recordModels(runtime.connection);
  const relay = runtime.outbox([models.Revision]);

  const viewConfigs = new ViewConfigCache(
    new ConfigClient(config.CONFIG_SERVICE_URL, config.UPSTREAM_TIMEOUT_MS),
    config.VIEW_CONFIG_CACHE_TTL_MS,
  );
  const repository = new MongoRecordRepository(models, logger, runtime.kickOutbox);
  const records = new RecordService(
    repository,
    new AppointmentsClient(config.APPOINTMENTS_SERVICE_URL, config.UPSTREAM_TIMEOUT_MS),
    new AuthClient(config.AUTH_SERVICE_URL, config.UPSTREAM_TIMEOUT_MS),
    viewConfigs,
  );
  const requireUser = runtime.requireUser();
  const erasure = new RecordErasure(models);
  const [viewConfigFeed, listingFeed, erasureFeed] = RECORDS_QUEUE_PURPOSES;
  runtime.consume({ purpose: viewConfigFeed, events: viewConfigHandlers(viewConfigs) });
  runtime.consume({ purpose: listingFeed, events: recordListingHandlers(repository) });
  runtime.consume({ purpose: erasureFeed, events: patientErasureHandlers(erasure) });
  const retentionMs = config.RECORDS_RETENTION_YEARS * 365.25 * 86_400_000;
  runtime.every({
    name: 'records retention',
    intervalMs: config.RECORDS_RETENTION_SWEEP_MS,
    run: async () => {
      const deleted = await erasure.deleteExpired(new Date(Date.now() - retentionMs));
      if (deleted > 0) logger.info({ deleted }, 'records of erased patients past their retention deleted');
    },
  });

  runtime.every({
    name: 'record days',
    intervalMs: config.DAY_COUNTS_INTERVAL_MS,
    run: async () => {
      const filled = await repository.days.fillMissingDays();
      if (filled > 0) logger.info({ filled }, 'record list entries given their day');
      const keyed = await repository.searchKeys.fill();
      if (keyed > 0) logger.info({ keyed }, 'record list entries given their search keys');
      await repository.days.pages.settle();
    },
  });

  const service = {
    app: runtime.httpApp((router) => {
      router.use(tableRouter('records', recordsHandlers(records, runtime.audit), requireUser));
    }),
    models,
    relay,
    viewConfigs,
    /** Records of erased patients (tests run the retention sweep with it). */
    erasure,
    ...runtime.startAndStop(),
  };
  return service satisfies ServiceHandle;
}

export type RecordsService = ReturnType<typeof createRecordsService>;
