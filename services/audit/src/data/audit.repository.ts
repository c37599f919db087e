import type { QueryFilter } from 'mongoose';
import { escapeRegex, foldName } from '@crm/contracts';
import { isDuplicateKey } from '@crm/server-kit';
import type { AuditFilter, AuditLog, AuditRow, PageRequest } from '../domain/audit-entry';
import type { AuditModels, EntryDocument } from './audit.models';

type StoredEntry = EntryDocument & { _id: string };

const NEWEST_FIRST = { at: -1, _id: -1 } as const;

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

  async page(filter: AuditFilter, { skip, limit }: PageRequest): Promise<AuditRow[]> {
    const docs = await this.models.Entry.find(toQuery(filter))
      .sort(NEWEST_FIRST)
      .skip(skip)
      .limit(limit)
      .lean<StoredEntry[]>();
    return docs.map(toRow);
  }

  count(filter: AuditFilter): Promise<number> {
    return this.models.Entry.countDocuments(toQuery(filter));
  }

  async *stream(filter: AuditFilter): AsyncIterable<AuditRow> {
    const cursor = this.models.Entry.find(toQuery(filter)).sort(NEWEST_FIRST).lean<StoredEntry[]>().cursor();
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
