import mongoose, { type Connection } from 'mongoose';
import { auditMineQuery, auditQuery, type AuditEntryData } from '@crm/contracts';
import { syncIndexes } from '@crm/server-kit/service';
import { documentShape, infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { auditModels, type AuditModels } from '../src/data/audit.models';
import { MongoAuditLog } from '../src/data/audit.repository';
import { seedAuditEntries } from '../src/data/audit.seed-bulk';
import { MongoStaffDirectory } from '../src/data/staff.repository';
import { AuditService } from '../src/domain/audit.service';

/**
 * The bulk seed module (bench/growth) stores the rows the consumer stores for a delivered entry,
 * and the trail's own reads find them.
 */
let connection: Connection;
let models: AuditModels;
let audit: AuditService;
const doctor = uniqueId();
const [ana, luis] = [uniqueId(), uniqueId()];

const entry = (minute: number, patientIds: string[]): AuditEntryData => ({
  at: new Date(Date.UTC(2025, 2, 3, 9, minute)).toISOString(),
  actorId: doctor,
  actorRol: 'DOCTOR',
  action: 'record.read',
  patientIds,
  resource: 'record',
  resourceId: uniqueId(),
  requestId: `request-${minute}`,
  clientAddress: '10.0.0.1',
  outcome: 'success',
});

const stored = (rowId: string) => models.Entry.collection.findOne({ _id: rowId as never });

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('audit_seed') }).asPromise();
  models = auditModels(connection);
  await syncIndexes(connection);
  audit = new AuditService(new MongoAuditLog(models), new MongoStaffDirectory(models), 1000);
  const rows = await seedAuditEntries(models, [
    { eventId: 'seed-1', data: entry(1, [ana]), actorName: 'Dra. Núñez Pérez' },
    { eventId: 'seed-2', data: entry(2, [ana, luis]), actorName: 'Dra. Núñez Pérez' },
    { eventId: 'seed-3', data: entry(3, [luis]), actorName: 'Dra. Núñez Pérez' },
  ]);
  expect(rows).toBe(4);
  // The consumer's path: an `audit.entry.recorded.v1` delivered and stored.
  expect(await audit.store('consumed-1', { ...entry(4, [ana]), actorName: 'Dra. Núñez Pérez' })).toBe(1);
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

it('stores rows of the same shape as the consumer does', async () => {
  const written = documentShape((await stored('consumed-1:0'))!);
  expect(written).toContain('nameKey');
  for (const rowId of ['seed-1:0', 'seed-2:0', 'seed-2:1', 'seed-3:0'])
    expect(documentShape((await stored(rowId))!)).toEqual(written);
});

it('is found by the trail’s reads: by patient, by the actor’s name (folded), in a patient’s own view', async () => {
  const ofAna = await audit.search(auditQuery.parse({ patientId: ana }));
  expect(ofAna.rows.map((row) => row.rowId)).toEqual(['consumed-1:0', 'seed-2:0', 'seed-1:0']);
  expect(ofAna.total).toBe(3);
  expect(ofAna.rows[1]).toMatchObject({
    eventId: 'seed-2',
    at: new Date(Date.UTC(2025, 2, 3, 9, 2)),
    actorName: 'Dra. Núñez Pérez',
    patientId: ana,
    action: 'record.read',
  });

  const byName = await audit.search(auditQuery.parse({ search: 'nunez perez', patientId: luis }));
  expect(byName.rows.map((row) => row.rowId)).toEqual(['seed-3:0', 'seed-2:1']);

  const luisView = await audit.mine(luis, auditMineQuery.parse({}));
  expect(luisView.rows.map((row) => row.rowId)).toEqual(['seed-3:0', 'seed-2:1']);
});
