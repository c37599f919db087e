import mongoose, { type Connection } from 'mongoose';
import { syncIndexes, WRITE_MARKS } from '@crm/server-kit/service';
import { infrastructure, uniqueName } from '@crm/testing';
import { auditModels, type AuditModels } from '../src/data/audit.models';
import { MongoAuditLog } from '../src/data/audit.repository';
import type { AuditFilter, AuditRow } from '../src/domain/audit-entry';

/**
 * The whole trail and date ranges read a day at a time, one patient's trail a month at a time
 * (data/trail-days.ts): every page is the one the sorted index gives (the reference: a log whose
 * rows have no day yet reads by it), with an exact total, as rows arrive, after a crash between
 * insert and mark, and after the backfill.
 */
let connection: Connection;
let models: AuditModels;
let byDay: MongoAuditLog;

/** Counts the days (answered) and the patients' months this log marked (its writes are done). */
const settle = async () => {
  await byDay.days.patientPages.settleOwn();
  return byDay.days.pages.settleOwn();
};

/** 5 rows an hour from 06:00 to 23:00 UTC on 2025-07-14..17: in summer 23:xx UTC is the next centre day. */
function rowsOfDays(prefix: string, days: string[]): AuditRow[] {
  return days.flatMap((day, d) =>
    Array.from({ length: 90 }, (_, i) => ({
      rowId: `${prefix}${d}-${String(i).padStart(2, '0')}:0`,
      eventId: `${prefix}${d}-${String(i).padStart(2, '0')}`,
      row: 0,
      // Several rows at the same instant: `_id` breaks the tie.
      at: new Date(
        `${day}T${String(6 + Math.floor(i / 5)).padStart(2, '0')}:${String((i % 5) * 7).padStart(2, '0')}:00Z`,
      ),
      actorId: 'doctor-1',
      actorRol: 'DOCTOR' as const,
      action: 'record.read',
      resource: 'record',
      patientId: `patient-${i % 7}`,
    })),
  );
}

/** The same pages from the sorted index: a second log over a copy of the rows without their day. */
async function reference(filter: AuditFilter, page: number, limit: number) {
  const copy = auditModels(connection.useDb(`${connection.name}_ref`, { useCache: true }));
  const log = new MongoAuditLog(copy);
  return log.page(filter, { page, limit });
}

async function copyForReference(): Promise<void> {
  const copy = auditModels(connection.useDb(`${connection.name}_ref`, { useCache: true }));
  await copy.Entry.collection.deleteMany({});
  const rows = await models.Entry.collection.find({}).toArray();
  await copy.Entry.collection.insertMany(rows.map(({ day: _day, patientMonth: _month, ...row }) => row));
}

async function expectSameAsSortedIndex(filter: AuditFilter, limit: number) {
  await copyForReference();
  const first = await byDay.page(filter, { page: 1, limit });
  const pages = Math.ceil(first.total / limit) + 1;
  for (let page = 1; page <= pages; page++) {
    const [mine, theirs] = await Promise.all([
      byDay.page(filter, { page, limit }),
      reference(filter, page, limit),
    ]);
    expect(mine.rows.map((row) => row.rowId)).toEqual(theirs.rows.map((row) => row.rowId));
    expect(mine.total).toBe(theirs.total);
    expect(mine.estimate).toBe(false);
  }
}

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('audit_days') }).asPromise();
  models = auditModels(connection);
  await syncIndexes(connection);
  byDay = new MongoAuditLog(models);
  expect(await byDay.append(rowsOfDays('a', ['2025-07-14', '2025-07-15', '2025-07-17']))).toBe(270);
  expect(await byDay.days.fillMissingDays()).toBe(0);
  expect(byDay.days.readable).toBe(true);
});

afterAll(async () => {
  await connection.useDb(`${connection.name}_ref`).dropDatabase();
  await connection.dropDatabase();
  await connection.close();
});

it('stores each row with its centre day: 23:30 UTC in July is the next day in the Canaries', async () => {
  const late = await models.Entry.collection.findOne({ _id: 'a0-89:0' as never });
  expect(late).toMatchObject({ day: '2025-07-15' });
  const early = await models.Entry.collection.findOne({ _id: 'a0-00:0' as never });
  expect(early).toMatchObject({ day: '2025-07-14' });
});

it('the whole trail: every page the sorted index gives, an exact total, not an estimate', async () => {
  await settle();
  expect(await models.trailDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  expect(await byDay.count({})).toEqual({ total: 270, estimate: false });
  await expectSameAsSortedIndex({}, 20);
  await expectSameAsSortedIndex({}, 7);
});

it('date ranges: whole centre days and instants inside a day', async () => {
  const range = (from: string, to: string) => ({ from: new Date(from), to: new Date(to) });
  // The centre's 2025-07-15 (UTC+1): 2025-07-14T23:00Z to 2025-07-15T23:00Z.
  await expectSameAsSortedIndex(range('2025-07-14T23:00:00Z', '2025-07-15T23:00:00Z'), 20);
  await expectSameAsSortedIndex(range('2025-07-14T10:07:00Z', '2025-07-17T12:00:00Z'), 25);
  await expectSameAsSortedIndex({ from: new Date('2025-07-15T09:14:00Z') }, 30);
  await expectSameAsSortedIndex({ to: new Date('2025-07-15T09:14:00Z') }, 30);
  expect(
    (await byDay.page(range('2025-07-16T00:00:00Z', '2025-07-16T05:00:00Z'), { page: 1, limit: 10 })).total,
  ).toBe(0);
});

it('rows arriving on a counted day: exact at once, before the background count', async () => {
  await settle();
  expect(await byDay.append(rowsOfDays('b', ['2025-07-15']))).toBe(90);
  expect((await models.trailDays.marks.distinct('day', WRITE_MARKS)).sort()).toEqual([
    '2025-07-15',
    '2025-07-16',
  ]);
  expect((await byDay.count({})).total).toBe(360);
  await expectSameAsSortedIndex({}, 40);
  // The background pass leaves marks younger than five minutes (their writes may be under way).
  expect(await byDay.days.pages.settle()).toBe(0);
  expect(await settle()).toBe(2);
  expect(await models.trailDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  expect(await models.trailDays.days.findById('2025-07-15').lean()).toMatchObject({ rows: 175 });
  expect((await byDay.count({})).total).toBe(360);
});

it('a redelivered entry: nothing stored, nothing counted twice', async () => {
  const rows = rowsOfDays('c', ['2025-07-14']).slice(0, 10);
  expect(await byDay.append(rows)).toBe(10);
  expect(await byDay.append(rows)).toBe(0);
  await settle();
  expect((await byDay.count({})).total).toBe(370);
  await expectSameAsSortedIndex({}, 50);
});

it('rows stored before the day existed: read by the sorted index until the backfill gave them theirs', async () => {
  const oldRows = rowsOfDays('d', ['2025-07-16']).slice(0, 30);
  await models.Entry.collection.insertMany(
    oldRows.map(({ rowId, ...row }) => ({ _id: rowId as never, ...row, storedAt: new Date() })),
  );
  const restarted = new MongoAuditLog(models);
  expect(restarted.days.readable).toBe(false);
  expect(await restarted.count({})).toMatchObject({ estimate: true });
  expect(await restarted.days.fillMissingDays(20)).toBe(20);
  expect(await restarted.days.fillMissingDays(20)).toBe(10);
  expect(restarted.days.readable).toBe(false);
  expect(await restarted.days.fillMissingDays(20)).toBe(0);
  expect(restarted.days.readable).toBe(true);
  byDay = restarted;
  expect(await byDay.count({})).toEqual({ total: 400, estimate: false });
  await expectSameAsSortedIndex({}, 30);
  expect(await models.Entry.collection.findOne({ _id: 'd0-03:0' as never })).toMatchObject({
    day: '2025-07-16',
    patientMonth: 'patient-3|2025-07',
  });
  await expectSameAsSortedIndex({ patientId: 'patient-3' }, 9);
});

it('a backlog of more than 31 uncounted days: read by the sorted index until the background count caught up', async () => {
  const days = Array.from({ length: 32 }, (_, i) =>
    new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10),
  );
  await byDay.days.pages.marked(days);
  expect(await byDay.count({})).toMatchObject({ estimate: true });
  // A month of them is not a backlog.
  expect(await byDay.count({ from: new Date('2024-01-02T00:00:00Z') })).toMatchObject({ estimate: false });
  await settle();
  expect(await byDay.count({})).toEqual({ total: 400, estimate: false });
});

it('one patient’s trail: a month of the centre at a time, every page the sorted index gives, its total from the counts', async () => {
  // 23:xx UTC on 30 June is 1 July in the Canaries: those rows are July's.
  expect(await byDay.append(rowsOfDays('m', ['2025-06-30', '2025-05-02']))).toBe(180);
  expect(await models.Entry.collection.findOne({ _id: 'm0-89:0' as never })).toMatchObject({
    day: '2025-07-01',
    patientMonth: `patient-${89 % 7}|2025-07`,
  });
  // Months written to since counted are loaded and counted by the read itself.
  expect(await models.patientMonths.marks.countDocuments({ scope: 'patient-3' })).toBeGreaterThan(0);
  for (const patientId of ['patient-3', 'patient-5']) await expectSameAsSortedIndex({ patientId }, 7);
  await settle();
  expect(await models.patientMonths.marks.countDocuments()).toBe(0);
  expect(await models.patientMonths.days.findById('patient-3|2025-06').lean()).toMatchObject({
    scope: 'patient-3',
  });
  await expectSameAsSortedIndex({ patientId: 'patient-3' }, 7);
  await expectSameAsSortedIndex({ patientId: 'patient-3' }, 50);
  expect(await byDay.count({ patientId: 'nobody' })).toEqual({ total: 0, estimate: false });
  // The total is the months' stored counts, not a count of the rows (a wrong count shows).
  const { total } = await byDay.count({ patientId: 'patient-3' });
  await models.patientMonths.days.updateOne({ _id: 'patient-3|2025-05' }, { $inc: { rows: 1000 } });
  expect((await byDay.count({ patientId: 'patient-3' })).total).toBe(total + 1000);
  await models.patientMonths.days.updateOne({ _id: 'patient-3|2025-05' }, { $inc: { rows: -1000 } });
  // The patient and anything else: the sorted index.
  await expectSameAsSortedIndex({ patientId: 'patient-3', action: 'record.read' }, 7);
});

it('a row stored before patientMonth existed (its day counted) gets its month, and its day is not marked again', async () => {
  await byDay.days.pages.marked(['2025-07-17']);
  await models.Entry.collection.insertOne({
    _id: 'v1-row:0' as never,
    eventId: 'v1-row',
    row: 0,
    at: new Date('2025-07-17T10:00:00Z'),
    day: '2025-07-17',
    actorId: 'doctor-1',
    actorRol: 'DOCTOR',
    action: 'record.read',
    resource: 'record',
    patientId: 'patient-3',
    storedAt: new Date(),
  });
  await settle();
  const restarted = new MongoAuditLog(models);
  expect(await restarted.days.fillMissingDays()).toBe(1);
  expect(await models.trailDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  expect(await models.patientMonths.marks.distinct('day')).toEqual(['patient-3|2025-07']);
  expect(await models.Entry.collection.findOne({ _id: 'v1-row:0' as never })).toMatchObject({
    patientMonth: 'patient-3|2025-07',
  });
  expect(await restarted.days.fillMissingDays()).toBe(0);
  byDay = restarted;
  await expectSameAsSortedIndex({ patientId: 'patient-3' }, 9);
  await expectSameAsSortedIndex({}, 60);
});
