/**
 * Bulk seeding of the records service's collections (benchmarks, tests): each record's revisions
 * (`record_revisions`, as `save` inserts them) and its listing entry (`records`, as the listing is
 * moved to the latest revision), through the service's models in unordered batches, events already
 * published (no outbox entries, no pending flag). Nothing here is used by the running service.
 */
import { foldName } from '@crm/contracts';
import { insertPublished } from '@crm/event-bus';
import type { ClinicalRecord } from '../domain/record';
import { revisionId, type RecordModels } from './record.models';

/** A record as saved: `revision` is its latest; revisions 1… are all stored (same fields, earlier times). */
export type SeedRecord = ClinicalRecord;

const fieldsOf = (record: ClinicalRecord) => {
  const { id, ...rest } = record;
  return { recordId: id, ...rest };
};

export async function seedRecords(
  models: RecordModels,
  records: readonly SeedRecord[],
  batchSize?: number,
): Promise<{ revisions: number; listed: number }> {
  const revisions = records.flatMap((record) =>
    Array.from({ length: record.revision }, (_, i) => ({
      _id: revisionId(record.id, i + 1),
      ...fieldsOf(record),
      revision: i + 1,
      ...(i + 1 < record.revision ? { updatedAt: record.createdAt } : {}),
    })),
  );
  const listing = records.map((record) => ({
    _id: record.id,
    ...fieldsOf(record),
    userKey: foldName(record.user.name),
    doctorKey: foldName(record.doctor.name),
  }));
  return {
    revisions: await insertPublished(models.Revision, revisions, batchSize),
    listed: await insertPublished(models.Listing, listing, batchSize),
  };
}
