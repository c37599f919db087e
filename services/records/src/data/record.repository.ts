import { foldName } from '@crm/contracts';
import type { EventEnvelope } from '@crm/contracts';
import { withOutbox } from '@crm/event-bus';
import { isDuplicateKey, type Logger } from '@crm/server-kit';
import { readPage, SearchKeysBackfill, searchedPage } from '@crm/server-kit/service';
import type { ClinicalRecord, RecordPageQuery, RecordRepository } from '../domain/record';
import { RecordDays } from './record-days';
import {
  listingOf,
  listingSearched,
  listingSearchKeys,
  newestFirst,
  revisionId,
  type ListingDocument,
  type RecordFields,
  type RecordModels,
  type RevisionDocument,
} from './record.models';

/** The list's order (index `date.date_-1__id_-1`); `_id` makes it total, so pages can be read from the end. */
const NEWEST_FIRST: Record<string, 1 | -1> = { 'date.date': -1, _id: -1 };

const toRecord = (doc: RecordFields): ClinicalRecord => ({
  id: doc.recordId,
  userId: doc.userId,
  dateId: doc.dateId,
  doctor: { id: doc.doctor.id, name: doc.doctor.name },
  user: { name: doc.user.name },
  date: { date: doc.date.date },
  metadata: doc.metadata ?? {},
  configVersion: doc.configVersion,
  view: doc.view,
  revision: doc.revision,
  updatedBy: { id: doc.updatedBy.id },
  createdAt: doc.createdAt,
  updatedAt: doc.updatedAt,
});

const toFields = (record: ClinicalRecord): RecordFields => ({
  recordId: record.id,
  revision: record.revision,
  userId: record.userId,
  dateId: record.dateId,
  doctor: record.doctor,
  user: record.user,
  date: record.date,
  metadata: record.metadata,
  configVersion: record.configVersion,
  view: record.view,
  updatedBy: record.updatedBy,
  createdAt: record.createdAt,
  updatedAt: record.updatedAt,
});

/** Revisions are the records (see record.models.ts); the listing is derived from them. */
export class MongoRecordRepository implements RecordRepository {
  readonly days: RecordDays;

  constructor(
    private readonly models: RecordModels,
    private readonly logger: Logger,
    private readonly onEventWritten: () => void = () => undefined,
  ) {
    this.days = new RecordDays(models);
    this.searchKeys = new SearchKeysBackfill<ListingDocument>(
      models.Listing.collection,
      { user: 1, doctor: 1 },
      listingSearchKeys,
    );
  }

  /** The search keys of list entries written before they had them (a background pass fills them). */
  readonly searchKeys: SearchKeysBackfill<ListingDocument>;

  async findById(id: string): Promise<ClinicalRecord | undefined> {
    const doc = await this.models.Revision.findOne({ recordId: id })
      .sort({ revision: -1 })
      .lean<RevisionDocument>();
    return doc ? toRecord(doc) : undefined;
  }

  async save(record: ClinicalRecord, event: EventEnvelope): Promise<boolean> {
    const fields = toFields(record);
    try {
      // The revision and its event in one single-document insert (outbox, see @crm/event-bus).
      await this.models.Revision.create(
        withOutbox({ _id: revisionId(record.id, record.revision), ...fields }, event),
      );
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Someone saved this revision first; make sure the listing caught up with it.
      await this.refreshListing(record.id).catch(() => undefined);
      return false;
    }
    this.onEventWritten();
    try {
      await this.moveListingTo(fields);
    } catch (error) {
      // The record is stored; only the list lags behind until its next save.
      this.logger.warn(
        { recordId: record.id, revision: record.revision, err: (error as Error).message },
        'record listing not refreshed',
      );
    }
    return true;
  }

  async list({
    page,
    limit,
    search,
  }: RecordPageQuery): Promise<{ items: ClinicalRecord[]; total: number; totalIsEstimate: boolean }> {
    const key = foldName(search);
    // The whole list a day at a time (README, "Paging"); a search reads the sorted index.
    const byDay = !key && this.days.readable ? await this.days.pages.listing() : undefined;
    if (byDay) {
      const { rows, total } = await this.days.pages.page(byDay, page, limit);
      return { items: rows.map(toRecord), total, totalIsEstimate: false };
    }
    if (key) {
      const { items, total } = await searchedPage<ListingDocument>({
        search,
        read: (lookup) => this.models.Listing.find(lookup).lean<ListingDocument[]>(),
        searched: listingSearched,
        compare: newestFirst,
        page,
        limit,
        useKeys: this.searchKeys.complete,
      });
      return { items: items.map(toRecord), total, totalIsEstimate: false };
    }
    // Without a search the list is the whole collection (one entry per record): its size as the
    // server keeps it rather than a count of every entry on each page (README, "Paging").
    const total = await this.models.Listing.estimatedDocumentCount();
    const docs = await readPage<ListingDocument>(
      () => this.models.Listing.find({}),
      NEWEST_FIRST,
      total,
      page,
      limit,
    );
    return { items: docs.map(toRecord), total, totalIsEstimate: true };
  }

  async listOfPatient(userId: string): Promise<ClinicalRecord[]> {
    const docs = await this.models.Listing.find({ userId })
      .sort({ 'date.date': -1, _id: -1 })
      .lean<ListingDocument[]>();
    return docs.map(toRecord);
  }

  /** Brings the listing entry of a record to its latest revision (repair after a failed refresh). */
  async refreshListing(recordId: string): Promise<void> {
    const latest = await this.models.Revision.findOne({ recordId })
      .sort({ revision: -1 })
      .lean<RevisionDocument>();
    if (!latest) return;
    // The usual case (the save wrote it): one read instead of a no-op update and a refused insert.
    if (await this.models.Listing.exists({ _id: recordId, revision: { $gte: latest.revision } })) return;
    const { _id: _ignored, ...fields } = latest;
    delete (fields as { outbox?: unknown }).outbox;
    delete (fields as { outboxPending?: unknown }).outboxPending;
    await this.moveListingTo(fields);
  }

  /** Writes the listing entry unless it holds this revision or a later one already. */
  private async moveListingTo(fields: RecordFields): Promise<void> {
    const listing = listingOf(fields);
    // The day it leaves (its date may have changed) and the day it joins, before it moves.
    const listed = await this.models.Listing.findById(fields.recordId)
      .select({ day: 1 })
      .lean<Pick<ListingDocument, 'day'>>();
    await this.days.pages.marked([listed?.day, listing.day]);
    const moved = await this.models.Listing.updateOne(
      { _id: fields.recordId, revision: { $lt: fields.revision } },
      { $set: listing },
    );
    if (moved.matchedCount > 0) return;
    try {
      await this.models.Listing.create({ _id: fields.recordId, ...listing });
    } catch (error) {
      // It exists with this revision or a later one: nothing to do.
      if (!isDuplicateKey(error)) throw error;
    }
  }
}
