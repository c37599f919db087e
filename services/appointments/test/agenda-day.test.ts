import mongoose, { type Connection } from 'mongoose';
import { syncIndexes } from '@crm/server-kit/service';
import { infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { appointmentModels, type AppointmentModels } from '../src/data/appointment.model';
import { MongoAppointmentRepository } from '../src/data/appointment.repository';
import { seedAppointments, seedBookingCode, type SeedAppointment } from '../src/data/appointment.seed-bulk';
import type { Actor } from '../src/domain/appointment';

/**
 * Every appointment document carries its centre day (`day`), and the agenda reads a day by it (an
 * equality: FerretDB hands it to PostgreSQL's index, a date range it does not). Documents stored
 * before `day` existed are given it by the backfill; until none is left, the agenda reads the
 * date range, so none of them is missing from it meanwhile.
 */
let connection: Connection;
let models: AppointmentModels;
let appointments: MongoAppointmentRepository;

const staff: Actor = { id: uniqueId(), rol: 'DOCTOR' };
const appointment = (date: string, outcome: SeedAppointment['outcome'], n: number): SeedAppointment => ({
  id: uniqueId(),
  patient: { id: uniqueId(), name: `Paciente ${n}`, email: `${uniqueName('p')}@agenda.test` },
  date: new Date(date),
  bookedAt: new Date('2025-07-01T10:00:00.000Z'),
  bookedBy: staff,
  channel: 'staff',
  walkIn: false,
  outcome,
  bookingCode: seedBookingCode(9_000 + n),
});
// Canary time is UTC+1 in July: 23:30 UTC on the 10th is 00:30 on the 11th at the centre.
const seeded = [
  appointment('2025-07-11T09:00:00.000Z', 'attended', 1),
  appointment('2025-07-10T23:30:00.000Z', 'cancelled', 2),
  appointment('2025-07-11T08:15:00.000Z', 'booked', 3),
  appointment('2025-07-10T09:00:00.000Z', 'noShow', 4),
];

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('appointments_day') })
    .asPromise();
  models = appointmentModels(connection);
  await syncIndexes(connection);
  appointments = new MongoAppointmentRepository(models, () => undefined);
  await seedAppointments(models, seeded);
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const idsOf = (list: Array<{ id: string }>) => list.map((a) => a.id);

it('stores the centre day of every document it makes, and the agenda of a day reads by it', async () => {
  const stored = await models.Appointment.collection
    .find<{ appointmentId: string; kind: string; day?: string }>({})
    .toArray();
  expect(stored.length).toBeGreaterThan(seeded.length);
  const dayOf = (id: string) => new Set(stored.filter((d) => d.appointmentId === id).map((d) => d.day));
  expect([...dayOf(seeded[0]!.id)]).toEqual(['2025-07-11']);
  expect([...dayOf(seeded[1]!.id)]).toEqual(['2025-07-11']);
  expect([...dayOf(seeded[3]!.id)]).toEqual(['2025-07-10']);

  // One document stored before `day` existed.
  await models.Appointment.collection.updateMany({ appointmentId: seeded[0]!.id }, { $unset: { day: '' } });
  const onThe11th = [seeded[2]!.id, seeded[1]!.id, seeded[0]!.id].sort();
  // Before the backfill the agenda reads the date range: the old document is in it.
  expect(idsOf(await appointments.listOnDay('2025-07-11')).sort()).toEqual(onThe11th);

  expect(await appointments.fillMissingDays()).toBeGreaterThan(0);
  expect(await appointments.fillMissingDays()).toBe(0);
  expect(
    await models.Appointment.collection.countDocuments({ appointmentId: seeded[0]!.id, day: '2025-07-11' }),
  ).toBeGreaterThan(0);

  // Now by day: the same appointments as the date range, in time order, each once.
  const byDay = await appointments.listOnDay('2025-07-11');
  expect(idsOf(byDay)).toEqual([seeded[1]!.id, seeded[2]!.id, seeded[0]!.id]);
  expect(byDay.map((a) => a.status)).toEqual(['cancelled', 'booked', 'attended']);
  expect(idsOf(await appointments.listOnDay('2025-07-10'))).toEqual([seeded[3]!.id]);
  expect(await appointments.listOnDay('2025-07-12')).toEqual([]);
  // It is the equality that reads them: a document without its day is no longer found.
  await models.Appointment.collection.updateMany({ appointmentId: seeded[3]!.id }, { $unset: { day: '' } });
  expect(await appointments.listOnDay('2025-07-10')).toEqual([]);
});
