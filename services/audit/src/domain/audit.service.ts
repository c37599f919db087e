import type {
  AuditActorRole,
  AuditEntryData,
  AuditExportQuery,
  AuditMineQuery,
  AuditQuery,
} from '@crm/contracts';
import { foldName, paged } from '@crm/contracts';
import { badRequest } from '@crm/server-kit';
import { rowsOf, type AuditFilter, type AuditLog, type AuditRow, type StaffDirectory } from './audit-entry';
import { resolveRange } from './date-range';

/** Who counts as "the staff" for a patient's own view: people and the kiosk, never the patient. */
const STAFF_ACTORS: readonly AuditActorRole[] = ['DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'];

export interface RowsPage {
  rows: AuditRow[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
  totalIsEstimate?: true;
}

export class AuditService {
  constructor(
    private readonly log: AuditLog,
    private readonly staff: StaffDirectory,
    private readonly exportMaxRows: number,
  ) {}

  /**
   * Stores one entry (an `audit.entry.recorded.v1` event) exactly once: its rows have ids derived
   * from the event id, so a redelivered or twice-published event adds nothing. A missing actor
   * name is taken from the staff directory, as known at the time of storage.
   */
  async store(eventId: string, data: AuditEntryData): Promise<number> {
    const actorName = data.actorName ?? (await this.staff.names([data.actorId])).get(data.actorId);
    return this.log.append(rowsOf(eventId, data, actorName));
  }

  /** ADMIN search, newest first. */
  async search(query: AuditQuery): Promise<RowsPage> {
    return this.page(this.filterOf(query), query.page, query.limit);
  }

  /** What the staff did with this patient's data, newest first. */
  async mine(patientId: string, query: AuditMineQuery): Promise<RowsPage> {
    return this.page(
      { patientId, actorRoles: STAFF_ACTORS, ...nameFilter(query.search) },
      query.page,
      query.limit,
    );
  }

  /**
   * The rows of an export, after checking its size: refused when it is larger than the configured
   * maximum. `patients` are the people it names, so the export itself can be recorded about them.
   */
  async prepareExport(
    query: AuditExportQuery,
  ): Promise<{ patients: string[]; rows: AsyncIterable<AuditRow> }> {
    const filter = this.filterOf(query);
    const { total } = await this.log.count(filter);
    if (total > this.exportMaxRows) {
      const message = `La exportación tendría ${total} filas (máximo ${this.exportMaxRows}): acota las fechas o los filtros`;
      throw badRequest(message, [{ message, field: 'from' }]);
    }
    return { patients: await this.log.patientsIn(filter), rows: this.withNames(this.log.stream(filter)) };
  }

  /** Rows whose actor had no name when stored get the directory's current one (reads only). */
  async fillNames(rows: AuditRow[]): Promise<AuditRow[]> {
    const missing = [...new Set(rows.filter((row) => !row.actorName).map((row) => row.actorId))];
    if (missing.length === 0) return rows;
    const names = await this.staff.names(missing);
    return rows.map((row) =>
      row.actorName || !names.has(row.actorId) ? row : { ...row, actorName: names.get(row.actorId) },
    );
  }

  private async *withNames(rows: AsyncIterable<AuditRow>): AsyncIterable<AuditRow> {
    let batch: AuditRow[] = [];
    for await (const row of rows) {
      batch.push(row);
      if (batch.length === 200) {
        yield* await this.fillNames(batch);
        batch = [];
      }
    }
    yield* await this.fillNames(batch);
  }

  private async page(filter: AuditFilter, page: number, limit: number): Promise<RowsPage> {
    const { rows, total, estimate } = await this.log.page(filter, { page, limit });
    return {
      rows: await this.fillNames(rows),
      ...paged(total, page, limit, estimate),
    };
  }

  private filterOf(query: AuditExportQuery): AuditFilter {
    return {
      ...(query.patientId ? { patientId: query.patientId } : {}),
      ...(query.actorId ? { actorId: query.actorId } : {}),
      ...(query.action ? { action: query.action } : {}),
      ...resolveRange(query.from, query.to),
      ...nameFilter(query.search),
    };
  }
}

function nameFilter(search: string): Pick<AuditFilter, 'nameContains'> {
  const folded = foldName(search.trim());
  return folded ? { nameContains: folded } : {};
}
