import mongoose, { type Connection } from 'mongoose';
import { APPOINTMENT_SORTS } from '@crm/contracts';
import { syncIndexes } from '@crm/server-kit/service';
import { infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { appointmentModels, type AppointmentModels } from '../src/data/appointment.model';
import { MongoAppointmentRepository } from '../src/data/appointment.repository';
import { seedAppointments, seedBookingCode, type SeedAppointment } from '../src/data/appointment.seed-bulk';
import type { Actor, AppointmentPageQuery } from '../src/domain/appointment';
import { startOfLocalDay } from '../src/domain/slot-rules';

/**
 * The back office's day of work (`booked`, `checkedIn`, `current`) is read by equalities (the
 * active documents, the check-ins and today's ends by day: data/live-list.ts) and sorted, searched
 * and paged in memory. Every page of it is the one the sorted query gives (the reference: the same
 * repository before its documents are known to carry their day), and years of ended appointments
 * are not in it.
 */
let connection: Connection;
let models: AppointmentModels;
/** Reads by the sorted query: no backfill pass has said every document has its day. */
let sorted: MongoAppointmentRepository;
let live: MongoAppointmentRepository;

// 11:00 at the centre (UTC+1 in July); its day started at 2025-07-10T23:00Z.
const now = new Date('2025-07-11T10:00:00.000Z');
const staff: Actor = { id: uniqueId(), rol: 'DOCTOR' };
const people = [
  { name: 'Ana Núñez Pérez', phone: '612345678' },
  { name: 'Luis Pérez Gil', phone: '699112233' },
  { name: 'Ángela Ruiz', phone: undefined },
  { name: 'José Nuñez', phone: '655443322' },
];
let n = 0;
const appointment = (date: string, outcome: SeedAppointment['outcome'], walkIn = false): SeedAppointment => {
  const person = people[n % people.length]!;
  n += 1;
  return {
    id: uniqueId(),
    patient: {
      id: uniqueId(),
      name: person.name,
      email: `${uniqueName(`p${n}`)}@Lista.test`,
      ...(person.phone ? { phone: person.phone } : {}),
    },
    date: new Date(date),
    bookedAt: new Date('2025-07-01T10:00:00.000Z'),
    bookedBy: staff,
    channel: 'staff',
    walkIn,
    outcome,
    bookingCode: seedBookingCode(20_000 + n),
  };
};

const seeded = [
  appointment('2025-07-11T15:00:00.000Z', 'booked'),
  appointment('2025-07-14T09:00:00.000Z', 'booked'),
  appointment('2025-08-20T09:00:00.000Z', 'booked'),
  appointment('2025-07-11T08:00:00.000Z', 'booked'),
  // A walk-in at the same minute as another: `_id` orders them.
  appointment('2025-07-11T15:00:00.000Z', 'booked', true),
  appointment('2025-07-11T09:30:00.000Z', 'checkedIn'),
  appointment('2025-07-11T10:15:00.000Z', 'checkedIn'),
  appointment('2025-07-11T08:15:00.000Z', 'attended'),
  appointment('2025-07-11T07:30:00.000Z', 'noShow'),
  // 00:30 at the centre on the 11th: today's.
  appointment('2025-07-10T23:30:00.000Z', 'attended'),
  appointment('2025-07-11T09:00:00.000Z', 'cancelled'),
  appointment('2025-07-10T09:00:00.000Z', 'attended'),
  appointment('2025-07-10T12:00:00.000Z', 'noShow'),
  // Years of history.
  ...Array.from({ length: 30 }, (_, i) =>
    appointment(new Date(Date.UTC(2023, 0, 2 + i * 11, 9)).toISOString(), i % 3 ? 'attended' : 'noShow'),
  ),
];

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('appointments_live') })
    .asPromise();
  models = appointmentModels(connection);
  await syncIndexes(connection);
  await seedAppointments(models, seeded);
  sorted = new MongoAppointmentRepository(models, () => undefined);
  live = new MongoAppointmentRepository(models, () => undefined);
  expect(await live.fillMissingDays()).toBe(0);
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const query = (extra: Partial<AppointmentPageQuery>): AppointmentPageQuery => ({
  page: 1,
  limit: 3,
  search: '',
  sort: 'date',
  status: 'current',
  endedFrom: startOfLocalDay(now),
  now,
  ...extra,
});

it('every page of the day of work is the one the sorted query gives, in every order and search', async () => {
  let compared = 0;
  for (const status of ['booked', 'checkedIn', 'current'] as const)
    for (const sort of APPOINTMENT_SORTS)
      for (const search of ['', 'nunez', 'ÁNGELA', '612 34', 'lista.test', 'p3'])
        for (let page = 1; ; page += 1) {
          const [mine, reference] = await Promise.all([
            live.page(query({ status, sort, search, page })),
            sorted.page(query({ status, sort, search, page })),
          ]);
          expect({ status, sort, search, page, ...mine }).toEqual({
            status,
            sort,
            search,
            page,
            ...reference,
          });
          compared += mine.items.length;
          if (mine.items.length === 0) break;
        }
  expect(compared).toBeGreaterThan(100);
});

it('lists what is booked, checked in and ended today; nothing of the days before', async () => {
  const byId = new Map(seeded.map((a) => [a.id, a]));
  const listed = (await live.page(query({ limit: 100 }))).items;
  expect(listed.map((a) => [byId.get(a.id)!.date.toISOString(), a.status])).toEqual([
    ['2025-07-10T23:30:00.000Z', 'attended'],
    ['2025-07-11T07:30:00.000Z', 'noShow'],
    ['2025-07-11T08:00:00.000Z', 'booked'],
    ['2025-07-11T08:15:00.000Z', 'attended'],
    ['2025-07-11T09:30:00.000Z', 'checkedIn'],
    ['2025-07-11T10:15:00.000Z', 'checkedIn'],
    ['2025-07-11T15:00:00.000Z', 'booked'],
    ['2025-07-11T15:00:00.000Z', 'booked'],
    ['2025-07-14T09:00:00.000Z', 'booked'],
    ['2025-08-20T09:00:00.000Z', 'booked'],
  ]);
  expect((await live.page(query({ status: 'checkedIn' }))).total).toBe(2);
  expect((await live.page(query({ status: 'booked' }))).total).toBe(5);
});

it('an appointment whose end left its active document behind (a crash) is listed once, as it ended', async () => {
  const ended = seeded.find(
    (a) => a.outcome === 'attended' && a.date.toISOString().startsWith('2025-07-11'),
  )!;
  const [final] = await models.Appointment.find({ appointmentId: ended.id, kind: 'final' }).lean();
  await models.Appointment.collection.insertOne({
    ...final!,
    _id: ended.id as never,
    kind: 'active',
    status: 'booked',
    slotKey: 'stale-slot',
    activePatientKey: 'stale-patient',
  });
  try {
    const listed = (await live.page(query({ limit: 100 }))).items.filter((a) => a.id === ended.id);
    expect(listed.map((a) => a.status)).toEqual(['attended']);
  } finally {
    await models.Appointment.collection.deleteOne({ _id: ended.id as never, kind: 'active' });
  }
});
