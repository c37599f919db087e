import type { AuditActorRole, AuditEntryData, AuditOutcome } from '@crm/contracts';

/**
 * One stored row of the trail. An entry naming N patients is stored as N rows (one per patient;
 * one row without a patient when it names none), so "every access to this patient" is a plain
 * indexed equality, the same on MongoDB and FerretDB, and a page of rows is what the API returns.
 * Rows are written once and never changed or deleted (see README, "Retention").
 */
export interface AuditRow {
  /** `<eventId>:<n>`: the same event always gives the same rows, so a redelivery cannot add any. */
  rowId: string;
  eventId: string;
  /** n, the row's position in the entry's patient list (0 when it names none). */
  row: number;
  at: Date;
  actorId: string;
  actorName?: string;
  actorRol: AuditActorRole;
  action: string;
  patientId?: string;
  resource: string;
  resourceId?: string;
  requestId?: string;
  clientRequestId?: string;
  clientAddress?: string;
  outcome?: AuditOutcome;
  /** An administrator's stated reason for a platform action (a dead letter discarded). */
  reason?: string;
}

/** Which rows a query selects; every field optional, all of them must hold. */
export interface AuditFilter {
  patientId?: string;
  actorId?: string;
  action?: string;
  /** Inclusive. */
  from?: Date;
  /** Exclusive. */
  to?: Date;
  /** Part of the actor's name, folded (see `foldName`), matched literally. */
  nameContains?: string;
  actorRoles?: readonly AuditActorRole[];
}

export interface PageRequest {
  page: number;
  limit: number;
}

/** How many rows a filter matches; `estimate` when it was not counted (the whole trail). */
export interface RowCount {
  total: number;
  estimate: boolean;
}

/** A page of rows and how many the filter matches in all. */
export interface RowsOfPage extends RowCount {
  rows: AuditRow[];
}

/** The trail's storage: append and read, and nothing else. */
export interface AuditLog {
  /** Stores rows not stored yet (by rowId); returns how many were new. */
  append(rows: readonly AuditRow[]): Promise<number>;
  /** Newest first, with the filter's total (a deep page is read without the pages before it). */
  page(filter: AuditFilter, page: PageRequest): Promise<RowsOfPage>;
  /** Exact, except the unfiltered trail's size while it is read by its sorted index (an estimate). */
  count(filter: AuditFilter): Promise<RowCount>;
  /** Every matching row, newest first, read as it is consumed. */
  stream(filter: AuditFilter): AsyncIterable<AuditRow>;
  /** The distinct patients named by the matching rows. */
  patientsIn(filter: AuditFilter): Promise<string[]>;
}

/** Names of staff and kiosk accounts, from the auth service's events (patients are not kept). */
export interface StaffDirectory {
  names(ids: readonly string[]): Promise<Map<string, string>>;
  /** Stores the member as known at `asOf` unless a newer version is stored. True when stored. */
  save(member: { id: string; name: string; rol: AuditActorRole }, asOf: Date): Promise<boolean>;
}

/** The rows of one entry (see AuditRow). */
export function rowsOf(eventId: string, data: AuditEntryData, actorName?: string): AuditRow[] {
  const base = {
    eventId,
    at: new Date(data.at),
    actorId: data.actorId,
    actorRol: data.actorRol,
    action: data.action,
    resource: data.resource,
    ...(actorName ? { actorName } : {}),
    ...(data.resourceId !== undefined ? { resourceId: data.resourceId } : {}),
    ...(data.requestId ? { requestId: data.requestId } : {}),
    ...(data.clientRequestId ? { clientRequestId: data.clientRequestId } : {}),
    ...(data.clientAddress ? { clientAddress: data.clientAddress } : {}),
    ...(data.outcome ? { outcome: data.outcome } : {}),
    ...(data.reason ? { reason: data.reason } : {}),
  };
  const patients = [...new Set(data.patientIds)];
  if (patients.length === 0) return [{ ...base, rowId: `${eventId}:0`, row: 0 }];
  return patients.map((patientId, row) => ({ ...base, rowId: `${eventId}:${row}`, row, patientId }));
}
