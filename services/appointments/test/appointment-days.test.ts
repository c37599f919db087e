import mongoose, { type Connection } from 'mongoose';
import { centreDayOf, type EventEnvelope } from '@crm/contracts';
import { MAX_DAYS_LOADED, syncIndexes, WRITE_MARKS } from '@crm/server-kit/service';
import { infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { appointmentModels, type AppointmentModels } from '../src/data/appointment.model';
import { AppointmentDays } from '../src/data/appointment-days';
import { MongoAppointmentRepository } from '../src/data/appointment.repository';
import { seedAppointments, seedBookingCode, type SeedAppointment } from '../src/data/appointment.seed-bulk';
import { MongoSlotHolds } from '../src/data/slot-hold.repository';
import { MongoTransitionRepository } from '../src/data/transition.repository';
import type { Actor, Appointment, AppointmentPageQuery } from '../src/domain/appointment';

/**
 * The list of every appointment (`status=all`, by date) is read a day at a time from per-day counts
 * (data/appointment-days.ts). Every page, both ways, at several sizes, is the one the sorted query
 * gives (the reference: the same repository before its documents are known to carry their day),
 * with an exact total, before and after the days are counted, and after the writes that add to a
 * counted day (a booking, a move) or that replace a document on it (an end).
 */
let connection: Connection;
let models: AppointmentModels;
/** Reads by the sorted query: no backfill pass has said every document has its day. */
let sorted: MongoAppointmentRepository;
let byDays: MongoAppointmentRepository;

const staff: Actor = { id: uniqueId(), rol: 'DOCTOR' };
const noEvent = () => ({}) as EventEnvelope;
let n = 0;
const appointment = (date: string, outcome: SeedAppointment['outcome'], walkIn = false): SeedAppointment => {
  n += 1;
  return {
    id: uniqueId(),
    patient: { id: uniqueId(), name: `Paciente ${n}`, email: `${uniqueName(`p${n}`)}@dias.test` },
    date: new Date(date),
    bookedAt: new Date('2024-12-01T10:00:00.000Z'),
    bookedBy: staff,
    channel: 'staff',
    walkIn,
    outcome,
    bookingCode: seedBookingCode(40_000 + n),
  };
};

const outcomes: SeedAppointment['outcome'][] = ['attended', 'noShow', 'cancelled', 'attended', 'checkedIn'];
const seeded = [
  // Two at the same minute (a walk-in beside a booking): `_id` orders them.
  appointment('2031-03-03T09:00:00.000Z', 'booked'),
  appointment('2031-03-03T09:00:00.000Z', 'booked', true),
  appointment('2031-03-04T17:15:00.000Z', 'booked'),
  // 00:30 at the centre on 1 July (UTC+1): a day that starts before UTC midnight.
  appointment('2025-06-30T23:30:00.000Z', 'attended'),
  ...Array.from({ length: 40 }, (_, i) =>
    appointment(
      new Date(Date.UTC(2025, 0, 2 + Math.floor(i / 3) * 9, 9 + (i % 3))).toISOString(),
      outcomes[i % 5]!,
    ),
  ),
];

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('appointments_days') })
    .asPromise();
  models = appointmentModels(connection);
  await syncIndexes(connection);
  await seedAppointments(models, seeded);
  sorted = new MongoAppointmentRepository(models, () => undefined);
  byDays = new MongoAppointmentRepository(models, () => undefined);
  expect(await byDays.fillMissingDays()).toBe(0);
  // The seed counted its days itself and left no mark.
  expect(await models.listDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  expect(await models.listDays.days.countDocuments()).toBe(
    new Set(seeded.map(({ date }) => centreDayOf(date))).size,
  );
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const query = (extra: Partial<AppointmentPageQuery>): AppointmentPageQuery => ({
  page: 1,
  limit: 10,
  search: '',
  sort: 'date',
  status: 'all',
  ...extra,
});

/** How many appointments the list holds: each one's active or final documents, once. */
const listedNow = async () =>
  (await models.Appointment.distinct('appointmentId', { kind: { $in: ['active', 'final'] } })).length;

/** Every page of both orders at several sizes, by days, equals the sorted read's; exact totals. */
async function expectSameAsSorted(): Promise<void> {
  const listed = await listedNow();
  for (const sort of ['date', '-date'] as const)
    for (const limit of [3, 7, 100]) {
      const pages = Math.ceil(listed / limit) + 1;
      for (let page = 1; page <= pages; page++) {
        const [want, got] = await Promise.all([
          sorted.page(query({ sort, limit, page })),
          byDays.page(query({ sort, limit, page })),
        ]);
        const ids = (items: Appointment[]) => items.map(({ id, status }) => `${id} ${status}`);
        expect({ sort, limit, page, items: ids(got.items) }).toEqual({
          sort,
          limit,
          page,
          items: ids(want.items),
        });
        expect(got.total).toBe(listed);
        expect(got.totalIsEstimate).toBe(false);
      }
    }
}

/** The days counted as the background pass would, once the marks have settled. */
const settled = () =>
  new AppointmentDays(models, () => new Date(Date.now() + 6 * 60_000)).pages.settle(10_000);

it('a seeded history is listed page by page as the sorted read lists it, counted by the seed', async () => {
  await expectSameAsSorted();
});

/** A free slot of a seeded day each time (a retried test books again). */
let slotsTaken = 0;
const freeSlot = () => new Date(Date.UTC(2031, 2, 3, 10, 15 * slotsTaken++));
const book = (date: Date) => {
  const patient = { id: uniqueId(), name: 'Inés Martín', email: `${uniqueName('ines')}@dias.test` };
  return byDays.book(
    { date, patientId: patient.id, user: patient, bookedBy: staff, channel: 'staff', walkIn: false },
    noEvent,
  );
};

it('a booking, an end and a move are listed at once on a counted day, and counted by the pass', async () => {
  const transitions = new MongoTransitionRepository(models, () => undefined);
  // A counted day (the seed's) gets a booking: its mark makes readers count it themselves.
  const booked = await book(freeSlot());
  await expectSameAsSorted();
  // An end replaces the active document by its final copy: still one row, now cancelled.
  const ended = await transitions.end(booked, { to: 'cancelled', at: new Date(), by: staff }, noEvent);
  expect(ended?.status).toBe('cancelled');
  await expectSameAsSorted();

  // A move to another counted day: the hold becomes the new appointment there.
  const from = await book(freeSlot());
  const holds = new MongoSlotHolds(models, () => undefined);
  const movedId = byDays.newId();
  const target = new Date(Date.UTC(2025, 0, 2, 12, 15 * slotsTaken++));
  expect(await holds.hold(from, movedId, target, new Date(), false)).toBe('held');
  await transitions.end(
    from,
    { to: 'cancelled', at: new Date(), by: staff, rescheduledTo: movedId },
    noEvent,
  );
  expect(await holds.promote(movedId, noEvent)).toMatchObject({ id: movedId, status: 'booked' });
  await expectSameAsSorted();

  expect(await settled()).toBeGreaterThanOrEqual(2);
  expect(await models.listDays.marks.countDocuments(WRITE_MARKS)).toBe(0);
  const onTheDay = await models.Appointment.distinct('appointmentId', {
    day: '2031-03-03',
    kind: { $in: ['active', 'final'] },
  });
  expect(await models.listDays.days.findById('2031-03-03').lean()).toMatchObject({ rows: onTheDay.length });
  await expectSameAsSorted();
});

it('an end interrupted before its active document was deleted is listed once, as it ended', async () => {
  const transitions = new MongoTransitionRepository(models, () => undefined);
  const victim = await book(freeSlot());
  const active = await models.Appointment.findOne({ _id: victim.id, kind: 'active' }).lean();
  await transitions.end(victim, { to: 'noShow', at: new Date(), by: staff }, noEvent);
  // As if the writer had crashed between its insert and its delete.
  await models.Appointment.collection.insertOne(active!);
  const { items } = await byDays.page(query({ sort: '-date', limit: 100 }));
  expect(items.filter(({ id }) => id === victim.id).map(({ status }) => status)).toEqual(['noShow']);
  await models.Appointment.deleteOne({ _id: victim.id, kind: 'active' });
});

it('more days to count than a read loads itself: the sorted read answers', async () => {
  const days = new AppointmentDays(models);
  await days.pages.marked(
    Array.from({ length: MAX_DAYS_LOADED + 1 }, (_, i) =>
      new Date(Date.UTC(2024, 0, 1 + i)).toISOString().slice(0, 10),
    ),
  );
  const answer = await byDays.page(query({}));
  expect(answer.totalIsEstimate).toBe(true);
  expect(answer.items.map(({ id }) => id)).toEqual((await sorted.page(query({}))).items.map(({ id }) => id));
  await days.pages.settleOwn();
  expect((await byDays.page(query({}))).totalIsEstimate).toBe(false);
});
