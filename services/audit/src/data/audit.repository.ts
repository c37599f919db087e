import type { QueryFilter } from 'mongoose';
import { centreDayOf, escapeRegex, foldName } from '@crm/contracts';
import { onlyDuplicateKeys } from '@crm/server-kit';
import { readPage, totalOf, type DayListing } from '@crm/server-kit/service';
import type {
  AuditFilter,
  AuditLog,
  AuditRow,
  PageRequest,
  RowCount,
  RowsOfPage,
} from '../domain/audit-entry';
import type { AuditModels, EntryDocument } from './audit.models';
import { patientMonthOf, TrailDays, type StoredEntry } from './trail-days';

/** Newest first; `_id` breaks ties, so the order is total and a page can be read from either end. */
const NEWEST_FIRST: Record<string, 1 | -1> = { at: -1, _id: -1 };

/** The trail in MongoDB: inserts and reads only (there is no method that changes or deletes a row). */
export class MongoAuditLog implements AuditLog {
  readonly days: TrailDays;

  constructor(private readonly models: AuditModels) {
    this.days = new TrailDays(models);
  }

  async append(rows: readonly AuditRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const storedAt = new Date();
    const documents = rows.map(({ rowId, ...row }) => ({
      _id: rowId,
      ...row,
      day: centreDayOf(row.at),
      ...(row.patientId ? { patientMonth: patientMonthOf(row.patientId, row.at) } : {}),
      ...(row.actorName ? { nameKey: foldName(row.actorName) } : {}),
      storedAt,
    }));
    await this.days.marked(documents);
    try {
      // Unordered: rows already stored (a redelivery after a crash half-way) are skipped, the rest stored.
      const inserted = await this.models.Entry.collection.insertMany(
        documents as unknown as Parameters<typeof this.models.Entry.collection.insertMany>[0],
        { ordered: false },
      );
      return inserted.insertedCount;
    } catch (error) {
      if (!onlyDuplicateKeys(error)) throw error;
      const writeErrors = (error as { writeErrors?: unknown[] }).writeErrors;
      return rows.length - (Array.isArray(writeErrors) ? writeErrors.length : rows.length);
    }
  }

  async page(filter: AuditFilter, { page, limit }: PageRequest): Promise<RowsOfPage> {
    const byDay = await this.dayView(filter);
    if (byDay) {
      const { rows, total } = await this.days.pages.page(byDay, page, limit);
      return { rows: rows.map(toRow), total, estimate: false };
    }
    const byMonth = await this.patientView(filter);
    if (byMonth) {
      const { rows, total } = await this.days.patientPages.page(byMonth, page, limit);
      return { rows: rows.map(toRow), total, estimate: false };
    }
    // The total first: it says whether the page is past the end and from which end to read it.
    const { total, estimate } = await this.sortedCount(filter);
    const docs = await readPage<StoredEntry>(
      () => this.models.Entry.find(toQuery(filter)),
      NEWEST_FIRST,
      total,
      page,
      limit,
    );
    return { rows: docs.map(toRow), total, estimate };
  }

  async count(filter: AuditFilter): Promise<RowCount> {
    const listing = (await this.dayView(filter)) ?? (await this.patientView(filter));
    return listing ? { total: totalOf(listing), estimate: false } : this.sortedCount(filter);
  }

  /**
   * One patient's trail (`patientId` and nothing else) as their months, newest first, counted like
   * the days of `dayView`. Undefined for any other filter or before every row has its month.
   */
  private async patientView({
    patientId,
    ...others
  }: AuditFilter): Promise<DayListing<StoredEntry> | undefined> {
    if (!patientId || Object.values(others).some((value) => value !== undefined) || !this.days.readable)
      return undefined;
    return this.days.patientPages.listing({ scope: patientId });
  }

  /**
   * The whole trail or a date range as its days (newest first) with their counts, exact: the days
   * appended to since counted, and the range's end days (partly in it), are loaded and counted
   * here, and kept for the page. Undefined for any other filter, before every row has its day, or
   * when too many days would have to be loaded.
   */
  private async dayView(filter: AuditFilter): Promise<DayListing<StoredEntry> | undefined> {
    const { from, to, ...others } = filter;
    if (Object.values(others).some((value) => value !== undefined) || !this.days.readable) return undefined;
    return this.days.pages.listing({
      ...(from ? { first: centreDayOf(from) } : {}),
      ...(to ? { last: centreDayOf(new Date(to.getTime() - 1)) } : {}),
      keep: ({ at }) => (!from || at >= from) && (!to || at < to),
    });
  }

  private async sortedCount(filter: AuditFilter): Promise<RowCount> {
    const query = toQuery(filter);
    // The whole trail (1.5 million rows after five years) is not counted on every page: the
    // collection's size as the server keeps it. Rows are never deleted, so it is off only by rows
    // stored meanwhile (and on MongoDB after an unclean shutdown, until the next validate).
    if (Object.keys(query).length === 0)
      return { total: await this.models.Entry.estimatedDocumentCount(), estimate: true };
    return { total: await this.models.Entry.countDocuments(query), estimate: false };
  }

  async *stream(filter: AuditFilter): AsyncIterable<AuditRow> {
    // An export may stream for longer than a page is allowed to take (no read time limit).
    const cursor = this.models.Entry.find(toQuery(filter))
      .sort(NEWEST_FIRST)
      .maxTimeMS(0)
      .lean<StoredEntry[]>()
      .cursor();
    try {
      for await (const doc of cursor) yield toRow(doc as unknown as StoredEntry);
    } finally {
      await cursor.close().catch(() => undefined);
    }
  }

  async patientsIn(filter: AuditFilter): Promise<string[]> {
    const ids = await this.models.Entry.distinct('patientId', toQuery(filter));
    return ids.filter((id): id is string => typeof id === 'string');
  }
}

function toQuery(filter: AuditFilter): QueryFilter<EntryDocument> {
  const query: QueryFilter<EntryDocument> = {};
  if (filter.patientId) query.patientId = filter.patientId;
  if (filter.actorId) query.actorId = filter.actorId;
  if (filter.action) query.action = filter.action;
  if (filter.actorRoles) query.actorRol = { $in: [...filter.actorRoles] };
  if (filter.from || filter.to)
    query.at = { ...(filter.from ? { $gte: filter.from } : {}), ...(filter.to ? { $lt: filter.to } : {}) };
  if (filter.nameContains) query.nameKey = { $regex: escapeRegex(filter.nameContains) };
  return query;
}

function toRow(doc: StoredEntry): AuditRow {
  return {
    rowId: doc._id,
    eventId: doc.eventId,
    row: doc.row,
    at: doc.at,
    actorId: doc.actorId,
    actorRol: doc.actorRol,
    action: doc.action,
    resource: doc.resource,
    ...(doc.actorName ? { actorName: doc.actorName } : {}),
    ...(doc.patientId ? { patientId: doc.patientId } : {}),
    ...(doc.resourceId ? { resourceId: doc.resourceId } : {}),
    ...(doc.requestId ? { requestId: doc.requestId } : {}),
    ...(doc.clientRequestId ? { clientRequestId: doc.clientRequestId } : {}),
    ...(doc.clientAddress ? { clientAddress: doc.clientAddress } : {}),
    ...(doc.outcome ? { outcome: doc.outcome } : {}),
    ...(doc.reason ? { reason: doc.reason } : {}),
  };
}
