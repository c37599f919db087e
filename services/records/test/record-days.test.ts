import mongoose, { type Connection } from 'mongoose';
import { RECORDS_VIEW } from '@crm/contracts';
import { createLogger } from '@crm/server-kit';
import { syncIndexes, WRITE_MARKS } from '@crm/server-kit/service';
import { infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { RecordErasure } from '../src/data/record-erasure';
import { recordModels, revisionId, type RecordModels } from '../src/data/record.models';
import { MongoRecordRepository } from '../src/data/record.repository';
import { seedRecords, type SeedRecord } from '../src/data/record.seed-bulk';

/**
 * The list of records without a search is read a day at a time (data/record-days.ts): every page is
 * the one the sorted index gives (the reference: a repository whose backfill has not run reads by
 * it), with an exact total, as records move to another day, go at the end of their retention, and
 * after the backfill of entries written before they carried their day.
 */
let connection: Connection;
let models: RecordModels;
let byDay: MongoRecordRepository;
const logger = createLogger('records-days', 'silent');
const doctor = { id: uniqueId(), name: 'Dra. Begoña Ramos' };

const record = (date: string, name: string): SeedRecord => {
  const id = uniqueId();
  return {
    id,
    userId: uniqueId(),
    dateId: id,
    doctor,
    user: { name },
    date: { date: new Date(date) },
    metadata: {},
    configVersion: 1,
    view: RECORDS_VIEW,
    revision: 1,
    updatedBy: { id: doctor.id },
    createdAt: new Date('2025-05-01T09:00:00Z'),
    updatedAt: new Date('2025-05-01T09:00:00Z'),
  };
};
// Four days, several records at the same minute (`_id` orders them); 23:30 UTC in May is the next
// day at the centre (UTC+1).
const seeded = ['2025-05-05', '2025-05-06', '2025-05-08'].flatMap((day) =>
  Array.from({ length: 12 }, (_, i) =>
    record(`${day}T${String(8 + Math.floor(i / 3) * 5).padStart(2, '0')}:30:00Z`, `Paciente ${day} ${i}`),
  ),
);

/** Counts the days this repository marked (its writes are done). */
const settle = () => byDay.days.pages.settleOwn();

async function expectSameAsSortedIndex(limit: number) {
  const sorted = new MongoRecordRepository(models, logger);
  expect(sorted.days.readable).toBe(false);
  const first = await byDay.list({ page: 1, limit, search: '' });
  expect(first.totalIsEstimate).toBe(false);
  for (let page = 1; page <= Math.ceil(first.total / limit) + 1; page++) {
    const [mine, theirs] = await Promise.all([
      byDay.list({ page, limit, search: '' }),
      sorted.list({ page, limit, search: '' }),
    ]);
    expect(mine.items.map((r) => r.id)).toEqual(theirs.items.map((r) => r.id));
    expect(mine.total).toBe(theirs.total);
  }
  return first.total;
}

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('records_days') }).asPromise();
  models = recordModels(connection);
  await syncIndexes(connection);
  await seedRecords(models, seeded);
  byDay = new MongoRecordRepository(models, logger);
  expect(await byDay.days.fillMissingDays()).toBe(0);
  expect(byDay.days.readable).toBe(true);
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

it('the seeded days are counted, and every page is the one the sorted index gives', async () => {
  expect(await models.listingDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  const days = await models.listingDays.days.find().sort({ _id: 1 }).lean();
  expect(days.map((d) => [d._id, d.rows])).toEqual([
    ['2025-05-05', 9],
    ['2025-05-06', 12],
    ['2025-05-07', 3],
    ['2025-05-08', 9],
    ['2025-05-09', 3],
  ]);
  expect(await expectSameAsSortedIndex(5)).toBe(36);
  expect(await expectSameAsSortedIndex(10)).toBe(36);
});

it('a record moved to another day leaves one and joins the other, exact before and after the count', async () => {
  const { id: movedId, ...moved } = seeded[0]!;
  await models.Revision.create({
    _id: revisionId(movedId, 2),
    ...moved,
    recordId: movedId,
    revision: 2,
    date: { date: new Date('2025-05-07T10:00:00Z') },
  });
  await byDay.refreshListing(movedId);
  expect((await models.listingDays.marks.distinct('day', WRITE_MARKS)).sort()).toEqual([
    '2025-05-05',
    '2025-05-07',
  ]);
  await expectSameAsSortedIndex(7);
  expect(await settle()).toBe(2);
  expect(await models.listingDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  expect(await models.listingDays.days.findById('2025-05-07').lean()).toMatchObject({ rows: 4 });
  expect(await models.listingDays.days.findById('2025-05-05').lean()).toMatchObject({ rows: 8 });
  await expectSameAsSortedIndex(7);
});

it('records deleted at the end of their retention leave their days', async () => {
  const erased = seeded[20]!;
  const erasure = new RecordErasure(models);
  await erasure.pseudonymise(erased.userId, new Date('2025-06-01T00:00:00Z'));
  expect(await erasure.deleteExpired(new Date('2031-01-01T00:00:00Z'))).toBe(1);
  // The sweep counted the day it emptied once done: no mark left, the stored count exact.
  expect(await models.listingDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  expect(await models.listingDays.days.findById('2025-05-06').lean()).toMatchObject({ rows: 11 });
  expect(await expectSameAsSortedIndex(5)).toBe(35);
});

it('entries written before they carried their day: the sorted index until the backfill gave them theirs', async () => {
  const old = record('2025-05-12T09:00:00Z', 'Paciente antiguo');
  const { id, ...fields } = old;
  await models.Listing.collection.insertOne({
    _id: id as never,
    ...fields,
    recordId: id,
    userKey: 'paciente antiguo',
    doctorKey: 'dra. begona ramos',
  });
  const restarted = new MongoRecordRepository(models, logger);
  expect((await restarted.list({ page: 1, limit: 5, search: '' })).totalIsEstimate).toBe(true);
  expect(await restarted.days.fillMissingDays()).toBe(1);
  expect(restarted.days.readable).toBe(false);
  expect(await restarted.days.fillMissingDays()).toBe(0);
  expect(restarted.days.readable).toBe(true);
  byDay = restarted;
  expect(await expectSameAsSortedIndex(5)).toBe(36);
  expect((await byDay.list({ page: 1, limit: 5, search: '' })).items[0]!.id).toBe(id);
});
