import type { QueryFilter } from 'mongoose';
import { escapeRegex, foldName } from '@crm/contracts';
import { isDuplicateKey } from '@crm/server-kit';
import { readPage } from '@crm/server-kit/service';
import type { AuditFilter, AuditLog, AuditRow, PageRequest, RowCount } from '../domain/audit-entry';
import type { AuditModels, EntryDocument } from './audit.models';

type StoredEntry = EntryDocument & { _id: string };

/** Newest first; `_id` breaks ties, so the order is total and a page can be read from either end. */
const NEWEST_FIRST: Record<string, 1 | -1> = { at: -1, _id: -1 };

/** The trail in MongoDB: inserts and reads only (there is no method that changes or deletes a row). */
export class MongoAuditLog implements AuditLog {
  constructor(private readonly models: AuditModels) {}

  async append(rows: readonly AuditRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const storedAt = new Date();
    const documents = rows.map(({ rowId, ...row }) => ({
      _id: rowId,
      ...row,
      ...(row.actorName ? { nameKey: foldName(row.actorName) } : {}),
      storedAt,
    }));
    try {
      // Unordered: rows already stored (a redelivery after a crash half-way) are skipped, the rest stored.
      const inserted = await this.models.Entry.collection.insertMany(
        documents as unknown as Parameters<typeof this.models.Entry.collection.insertMany>[0],
        { ordered: false },
      );
      return inserted.insertedCount;
    } catch (error) {
      const writeErrors = (error as { writeErrors?: unknown[] }).writeErrors;
      const onlyDuplicates =
        Array.isArray(writeErrors) && writeErrors.length > 0
          ? writeErrors.every(
              (writeError) => isDuplicateKey(writeError) || isDuplicateKey(innerError(writeError)),
            )
          : isDuplicateKey(error);
      if (!onlyDuplicates) throw error;
      return rows.length - (Array.isArray(writeErrors) ? writeErrors.length : rows.length);
    }
  }

  async page(filter: AuditFilter, { page, limit }: PageRequest, total: number): Promise<AuditRow[]> {
    const query = toQuery(filter);
    const docs = await readPage<StoredEntry>(
      () => this.models.Entry.find(query),
      NEWEST_FIRST,
      total,
      page,
      limit,
    );
    return docs.map(toRow);
  }

  async count(filter: AuditFilter): Promise<RowCount> {
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

function innerError(writeError: unknown): unknown {
  return (writeError as { err?: unknown }).err;
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
