import mongoose, { type Connection } from 'mongoose';
import { infrastructure, uniqueName } from '@crm/testing';
import { syncIndexes } from '@crm/server-kit/service';
import { auditModels } from '../src/data/audit.models';
import { MongoAuditLog } from '../src/data/audit.repository';
import { MongoStaffDirectory } from '../src/data/staff.repository';
import { AuditService } from '../src/domain/audit.service';
import type { AuditRow } from '../src/domain/audit-entry';

let connection: Connection;
let audit: AuditService;
/** Every stored row id, newest first (the trail's order). */
let newestFirst: string[];

const query = (extra: Record<string, unknown>) =>
  ({ page: 1, limit: 10, search: '', ...extra }) as Parameters<AuditService['search']>[0];

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('audit_paging') }).asPromise();
  const models = auditModels(connection);
  await syncIndexes(connection);
  const log = new MongoAuditLog(models);
  audit = new AuditService(log, new MongoStaffDirectory(models), 1000);
  // 47 rows, several per instant (ties on `at`), two patients.
  const base = Date.parse('2025-03-01T09:00:00Z');
  const rows: AuditRow[] = Array.from({ length: 47 }, (_, i) => ({
    rowId: `e${String(i).padStart(2, '0')}:0`,
    eventId: `e${String(i).padStart(2, '0')}`,
    row: 0,
    at: new Date(base + Math.floor(i / 3) * 60_000),
    actorId: 'doctor-1',
    actorName: 'Dra. Pérez',
    actorRol: 'DOCTOR',
    action: 'record.read',
    resource: 'record',
    patientId: i % 2 === 0 ? 'patient-even' : 'patient-odd',
  }));
  expect(await log.append(rows)).toBe(47);
  // Stored again (a redelivery): nothing added.
  expect(await log.append(rows.slice(0, 5))).toBe(0);
  newestFirst = rows
    .map((r) => ({ id: r.rowId, at: r.at.getTime() }))
    .sort((a, b) => b.at - a.at || (a.id < b.id ? 1 : -1))
    .map((r) => r.id);
});

afterAll(async () => {
  await connection.dropDatabase();
  await connection.close();
});

describe('the trail, paged', () => {
  it('unfiltered: the estimated size, said so, and every page in order (first, middle, last, beyond)', async () => {
    for (const [page, from, to] of [
      [1, 0, 10],
      [3, 20, 30],
      [4, 30, 40],
      [5, 40, 47],
    ] as const) {
      const { rows, ...paging } = await audit.search(query({ page }));
      expect(paging).toEqual({ total: 47, page, limit: 10, totalPages: 5, totalIsEstimate: true });
      expect(rows.map((r) => r.rowId)).toEqual(newestFirst.slice(from, to));
    }
    const beyond = await audit.search(query({ page: 6 }));
    expect(beyond.rows).toEqual([]);
    expect(beyond).toMatchObject({ total: 47, page: 6, totalPages: 5 });
  });

  it('filtered: an exact total, no estimate flag, pages read from either end', async () => {
    const even = newestFirst.filter((id) => Number(id.slice(1, 3)) % 2 === 0);
    expect(even).toHaveLength(24);
    for (const [page, from, to] of [
      [1, 0, 10],
      [2, 10, 20],
      [3, 20, 24],
    ] as const) {
      const { rows, ...paging } = await audit.search(query({ page, patientId: 'patient-even' }));
      expect(paging).toEqual({ total: 24, page, limit: 10, totalPages: 3 });
      expect(rows.map((r) => r.rowId)).toEqual(even.slice(from, to));
    }
    const { rows, ...paging } = await audit.search(query({ page: 4, patientId: 'patient-even' }));
    expect(rows).toEqual([]);
    expect(paging).toEqual({ total: 24, page: 4, limit: 10, totalPages: 3 });
  });

  it('a patient’s own view is filtered: exact', async () => {
    const { rows, ...paging } = await audit.mine('patient-odd', { page: 3, limit: 10, search: '' } as never);
    expect(paging).toEqual({ total: 23, page: 3, limit: 10, totalPages: 3 });
    expect(rows).toHaveLength(3);
  });
});
