import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import { CentreRefundWindow, tableRouter, type Logger } from '@crm/server-kit';
import { reportsHandlers } from './api/reports.routes';
import type { ReportingConfig } from './config';
import { CentreCheckUpPrice } from './data/check-up-price';
import { MongoFactStore } from './data/facts.repository';
import { reportingModels } from './data/reporting.models';
import { ReportingService } from './domain/reporting.service';
import { reportingSubscription } from './events/reporting.consumer';
import { createSystemStatus } from './system/wiring';

/**
 * Wires the reporting service: the facts read model fed by the appointments' and records' events,
 * the day totals recomputed from it, their reconciliation, and `GET /reports/summary`.
 */
export function createReportingService(config: ReportingConfig, logger: Logger) {
  const runtime = createServiceRuntime('reporting', config, logger);
  const models = reportingModels(runtime.connection);
  const facts = new MongoFactStore(models);
  const refundWindow = new CentreRefundWindow(config.CONFIG_SERVICE_URL, {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    cacheMs: config.REPORTING_CENTRE_CACHE_MS,
    logger,
  });
  const checkUpPrice = new CentreCheckUpPrice(config.CONFIG_SERVICE_URL, {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    cacheMs: config.REPORTING_CENTRE_CACHE_MS,
    logger,
  });
  const reporting = new ReportingService(facts, refundWindow, checkUpPrice, {
    onError: (error) => logger.warn({ err: error.message }, 'day totals not recomputed; retried'),
  });
  runtime.every({
    name: 'reporting-reconcile',
    intervalMs: config.REPORTING_RECONCILE_MS,
    run: () => reporting.reconcile(),
  });
  // Not through runtime.consume: facts need no processed-events records.
  const centreUpdated = () => {
    refundWindow.invalidate();
    checkUpPrice.invalidate();
  };
  runtime.feed(reportingSubscription(reporting, centreUpdated, config.QUEUE_PREFIX));

  const systemHandlers = createSystemStatus(runtime, config);

  const service = {
    app: runtime.httpApp((router) => {
      router.use(
        tableRouter('reporting', { ...reportsHandlers(reporting), ...systemHandlers }, runtime.requireUser()),
      );
    }),
    models,
    reporting,
    ...runtime.startAndStop({
      beforeStop: async () => {
        reporting.stop();
        await reporting.flush().catch(() => undefined);
      },
    }),
  };
  return service satisfies ServiceHandle;
}

export type ReportingApp = ReturnType<typeof createReportingService>;
