/**
 * Bulk seeding of the access trail (benchmarks, tests): entries turned into rows by `rowsOf` and
 * stored by `MongoAuditLog.append`, exactly as the consumer stores a delivered entry, in batches.
 * Nothing here is used by the running service.
 */
import type { AuditEntryData } from '@crm/contracts';
import { BULK_INSERT_BATCH } from '@crm/event-bus';
import { rowsOf, type AuditRow } from '../domain/audit-entry';
import type { AuditModels } from './audit.models';
import { MongoAuditLog } from './audit.repository';

export interface SeedAuditEntry {
  eventId: string;
  data: AuditEntryData;
  actorName?: string;
}

/** Stores the entries' rows and counts their days; answers how many rows were stored. */
export async function seedAuditEntries(
  models: AuditModels,
  entries: Iterable<SeedAuditEntry>,
  batchSize = BULK_INSERT_BATCH,
): Promise<number> {
  const log = new MongoAuditLog(models);
  let stored = 0;
  let batch: AuditRow[] = [];
  for (const entry of entries) {
    batch.push(...rowsOf(entry.eventId, entry.data, entry.actorName));
    if (batch.length >= batchSize) {
      stored += await log.append(batch);
      batch = [];
    }
  }
  if (batch.length > 0) stored += await log.append(batch);
  // The days' counts now rather than by the running service's background pass: its writes are done.
  await log.days.pages.settleOwn();
  return stored;
}
