/**
 * Bulk seeding of the access trail (benchmarks, tests): entries turned into rows by `rowsOf` and
 * stored by `MongoAuditLog.append`, exactly as the consumer stores a delivered entry, in batches.
 * Nothing here is used by the running service.
 */
import { centreDayOf, type AuditEntryData } from '@crm/contracts';
import { BULK_INSERT_BATCH } from '@crm/event-bus';
import { rowsOf, type AuditRow } from '../domain/audit-entry';
import type { AuditModels } from './audit.models';
import { MongoAuditLog } from './audit.repository';
import { patientMonthOf } from './trail-days';

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
  log.days.pages.bulkLoad();
  log.days.patientPages.bulkLoad();
  let stored = 0;
  let offered = 0;
  const added = { days: new Map<string, number>(), patientMonths: new Map<string, number>() };
  const add = (counts: Map<string, number>, key: string) => counts.set(key, (counts.get(key) ?? 0) + 1);
  const store = async (batch: AuditRow[]) => {
    stored += await log.append(batch);
    offered += batch.length;
    for (const { at, patientId } of batch) {
      add(added.days, centreDayOf(at));
      if (patientId) add(added.patientMonths, patientMonthOf(patientId, at));
    }
  };
  let batch: AuditRow[] = [];
  for (const entry of entries) {
    batch.push(...rowsOf(entry.eventId, entry.data, entry.actorName));
    if (batch.length >= batchSize) {
      await store(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await store(batch);
  // The days' counts now rather than by the running service's background pass: its writes are
  // done. What each day got is known unless some rows were there already (then they are counted).
  const allNew = stored === offered;
  await log.days.pages.settleOwn(allNew ? added.days : undefined);
  await log.days.patientPages.settleOwn(allNew ? added.patientMonths : undefined);
  return stored;
}
