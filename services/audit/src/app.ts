import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import { tableRouter, type Logger } from '@crm/server-kit';
import { auditHandlers } from './api/audit.routes';
import type { AuditConfig } from './config';
import { auditModels } from './data/audit.models';
import { MongoAuditLog } from './data/audit.repository';
import { MongoStaffDirectory } from './data/staff.repository';
import { AuditService } from './domain/audit.service';
import { auditEntriesSubscription } from './events/audit-entries.consumer';
import { staffDirectoryHandlers } from './events/staff-directory.consumer';

/**
 * Wires the audit service: the trail (append-only `entries`), its feed of `audit.entry.recorded.v1`
 * from every service, the staff directory (names), the three read routes, and its own access trail
 * (exports are recorded through the same durable path as every other service's entries).
 */
export function createAuditService(config: AuditConfig, logger: Logger) {
  const runtime = createServiceRuntime('audit', config, logger);
  const models = auditModels(runtime.connection);
  // The runtime's trail (swept every AUDIT_OUTBOX_SWEEP_MS); its relay publishes the trail only.
  const trail = runtime.audit;
  const relay = runtime.outbox([]);

  const staff = new MongoStaffDirectory(models);
  const log = new MongoAuditLog(models);
  const audit = new AuditService(log, staff, config.AUDIT_EXPORT_MAX_ROWS);
  runtime.consume({ purpose: 'staff', events: staffDirectoryHandlers(staff) });
  // Not through runtime.consume: the entries feed needs no processed-events records and retries
  // for ever (see events/audit-entries.consumer.ts).
  runtime.feed(auditEntriesSubscription(audit, config.QUEUE_PREFIX));

  let warnedRefused = false;
  runtime.every({
    name: 'trail days',
    intervalMs: config.DAY_COUNTS_INTERVAL_MS,
    run: async () => {
      const filled = await log.days.fillMissingDays();
      if (filled === 'refused') {
        if (!warnedRefused)
          logger.warn(
            'the database user may not update entries: rows stored before their day are read by the sorted index',
          );
        warnedRefused = true;
      } else if (filled > 0) logger.info({ filled }, 'trail rows given their day');
      await log.days.pages.settle();
      await log.days.patientPages.settle();
    },
  });
  const service = {
    app: runtime.httpApp((router) => {
      router.use(tableRouter('audit', auditHandlers(audit, trail, logger), runtime.requireUser()));
    }),
    models,
    trail,
    relay,
    ...runtime.startAndStop(),
  };
  return service satisfies ServiceHandle;
}

export type AuditApp = ReturnType<typeof createAuditService>;
