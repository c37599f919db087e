/**
 * Bulk seeding of the records service's collections (benchmarks, tests): each record's revisions
 * (`record_revisions`, as `save` inserts them) and its listing entry (`records`, as the listing is
 * moved to the latest revision), through the service's models in unordered batches, events already
 * published (no outbox entries, no pending flag) unless said otherwise. Nothing here is used by the
 * running service.
 */
import { recordCreated } from '@crm/contracts';
import { BULK_INSERT_BATCH, createEnvelope, insertPublished, withOutbox } from '@crm/event-bus';
import { correlationIdOrNew } from '@crm/server-kit';
import type { ClinicalRecord } from '../domain/record';
import { recordReference } from '../domain/record.service';
import { RecordDays } from './record-days';
import { listingOf, revisionId, type RecordModels } from './record.models';

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
  const listing = records.map(listingEntry);
  return {
    revisions: await insertPublished(models.Revision, revisions, batchSize),
    listed: await listed(models, listing, batchSize),
  };
}

/** Inserts listing entries and counts their days now (rather than by the running service's pass). */
async function listed(
  models: RecordModels,
  listing: ReadonlyArray<ReturnType<typeof listingEntry>>,
  batchSize?: number,
): Promise<number> {
  const pages = new RecordDays(models).pages.bulkLoad();
  await pages.marked(listing.map((entry) => entry.day));
  // Every entry is new (the insert fails otherwise): what each day got is known.
  const stored = await insertPublished(models.Listing, listing, batchSize);
  const added = new Map<string, number>();
  for (const { day } of listing) added.set(day, (added.get(day) ?? 0) + 1);
  await pages.settleOwn(added);
  return stored;
}

const listingEntry = (record: SeedRecord) => ({ _id: record.id, ...listingOf(fieldsOf(record)) });

/**
 * Records just created whose events the relay has not published yet (its backlog after a broker
 * outage): each one's first revision as `save` inserts it, with its `records.record.created.v1` event
 * (the service's own payload, `recordReference`) in its outbox, and its listing entry.
 */
export async function seedUnpublishedRecords(
  models: RecordModels,
  records: readonly SeedRecord[],
  batchSize = BULK_INSERT_BATCH,
): Promise<{ revisions: number; listed: number }> {
  const first = records.map((record) => ({ ...record, revision: 1 }));
  const revisions = first.map((record) =>
    withOutbox(
      { _id: revisionId(record.id, 1), ...fieldsOf(record) },
      createEnvelope(recordCreated, recordReference(record), correlationIdOrNew()),
    ),
  );
  for (let i = 0; i < revisions.length; i += batchSize)
    await models.Revision.insertMany(revisions.slice(i, i + batchSize), { ordered: false });
  return {
    revisions: revisions.length,
    listed: await listed(models, first.map(listingEntry), batchSize),
  };
}
