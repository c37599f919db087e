import mongoose, { type Connection } from 'mongoose';
import { CENTRE_PROFILE_SEED, userRegistered } from '@crm/contracts';
import { createEnvelope, OUTBOX_FIELDS } from '@crm/event-bus';
import { syncIndexes } from '@crm/server-kit/service';
import { documentShape, infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { appointmentModels, type AppointmentModels } from '../src/data/appointment.model';
import { MongoAppointmentRepository } from '../src/data/appointment.repository';
import {
  seedAppointments,
  seedBookingCode,
  seedPatients,
  seedWaitlist,
  type SeedAppointment,
} from '../src/data/appointment.seed-bulk';
import { MongoPatientReadModel } from '../src/data/patient.repository';
import { MongoSlotHolds } from '../src/data/slot-hold.repository';
import { MongoTransitionRepository } from '../src/data/transition.repository';
import { waitlistModels, type WaitlistModels } from '../src/data/waitlist.model';
import { MongoWaitlistRepository } from '../src/data/waitlist.repository';
import type { Actor } from '../src/domain/appointment';
import { BookingService, type Caller } from '../src/domain/booking.service';
import { LifecycleService } from '../src/domain/lifecycle.service';
import { PatientDirectory } from '../src/domain/patient';
import { RescheduleService } from '../src/domain/reschedule.service';
import { patientSnapshotHandlers } from '../src/events/patient-snapshot.consumer';

/**
 * The bulk seed module (bench/growth) stores the patients read model, the documents of an
 * appointment at each point of its life (booked, checked in and attended by its record, cancelled,
 * moved) and waiting-list entries as the service's own paths do; the lists, look-ups and the slot
 * rule see them.
 */
const MINUTE = 60_000;
const now = new Date();
const noop = () => undefined;
let connection: Connection;
let models: AppointmentModels;
let waitlists: WaitlistModels;
let appointments: MongoAppointmentRepository;
let bookings: BookingService;
let written: Record<'booked' | 'attended' | 'cancelled' | 'moveFrom' | 'moved' | 'patient', string>;

const doctor: Caller = { id: uniqueId(), rol: 'DOCTOR', bearerToken: 'not-asked' };
const staff: Actor = { id: doctor.id, rol: 'DOCTOR' };
const slots = slotAllocator(6);
const past = (day: number, hour: number) => new Date(Date.UTC(2025, 2, day, hour));
const person = (name: string, phone: string) => ({
  id: uniqueId(),
  name,
  email: `${uniqueName('Paciente')}@Growth.test`,
  phone,
});
const [lucia, ivan, marta, ruben] = [
  person('Lucía Núñez Vázquez', '612 345 678'),
  person('Iván Torres Gil', '+34 699 111 222'),
  person('Marta Ramos Díaz', '633444555'),
  person('Rubén Moreno Alonso', '644 555 666'),
];
const id = {
  booked: uniqueId(),
  attended: uniqueId(),
  cancelled: uniqueId(),
  moveFrom: uniqueId(),
  moved: uniqueId(),
};
const bookedSlot = new Date(slots.next());
const movedSlot = new Date(slots.next());
const self = (p: { id: string }): Actor => ({ id: p.id, rol: 'PACIENT' });
const seeded: SeedAppointment[] = [
  {
    id: id.booked,
    patient: lucia,
    date: bookedSlot,
    bookedAt: now,
    bookedBy: self(lucia),
    channel: 'patient',
    walkIn: false,
    outcome: 'booked',
    bookingCode: seedBookingCode(1),
  },
  {
    id: id.attended,
    patient: ivan,
    date: past(3, 9),
    bookedAt: past(1, 9),
    bookedBy: staff,
    channel: 'staff',
    walkIn: false,
    outcome: 'attended',
    bookingCode: seedBookingCode(2),
    recordId: uniqueId(),
    checkedInBy: staff,
  },
  {
    id: id.cancelled,
    patient: marta,
    date: past(4, 10),
    bookedAt: past(1, 10),
    bookedBy: self(marta),
    channel: 'patient',
    walkIn: false,
    outcome: 'cancelled',
    bookingCode: seedBookingCode(3),
    endedAt: past(2, 10),
  },
  {
    id: id.moveFrom,
    patient: ruben,
    date: past(5, 11),
    bookedAt: past(1, 11),
    bookedBy: self(ruben),
    channel: 'patient',
    walkIn: false,
    outcome: 'cancelled',
    bookingCode: seedBookingCode(4),
    endedAt: past(2, 11),
    rescheduledTo: id.moved,
  },
  {
    id: id.moved,
    patient: ruben,
    date: movedSlot,
    bookedAt: past(2, 11),
    bookedBy: self(ruben),
    channel: 'patient',
    walkIn: false,
    outcome: 'booked',
    bookingCode: seedBookingCode(5),
    rescheduledFrom: { id: id.moveFrom, date: past(5, 11) },
  },
];
const waitingDay = '2031-02-03';

/** The lifecycle as the service wires it (the centre's refund window), its clock at `at`. */
const lifecycleAt = (at: Date) =>
  new LifecycleService(appointments, new MongoTransitionRepository(models, noop), () => at, {
    hours: async () => CENTRE_PROFILE_SEED.prices.refundWindowHours,
  });

/** The service's own writes: patients from auth's events, then bookings taken through their lives. */
async function writeThroughTheService(): Promise<typeof written> {
  const patients = new MongoPatientReadModel(models);
  const [[, registered]] = patientSnapshotHandlers(patients, appointments);
  const registeredPatient = async (name: string) => {
    const patient = {
      id: uniqueId(),
      name,
      email: `${uniqueName('paciente')}@example.test`,
      phone: '34655666777',
    };
    const data = {
      ...patient,
      rol: 'PACIENT' as const,
      canSignIn: true,
      confirmed: true,
      channel: 'staff' as const,
    };
    await registered(createEnvelope(userRegistered, data, 'test'), {
      queue: 'test',
      attempt: 1,
      redelivered: false,
    });
    return patient.id;
  };
  const book = async (name: string, at = new Date(slots.next())) =>
    bookings.bookForPatient(doctor, await registeredPatient(name), at);

  const booked = await book('Paula Gil Serrano');
  const attended = await book('Óscar Díaz Ramos');
  await lifecycleAt(new Date(attended.date.getTime() - 5 * MINUTE)).checkIn(staff, attended.id);
  const outcome = await lifecycleAt(new Date(attended.date.getTime() + 10 * MINUTE)).attendedByRecord(
    attended.id,
    uniqueId(),
  );
  expect(outcome).toHaveProperty('done.status', 'attended');
  const cancelled = await book('Sofía Blanco Ruiz');
  await lifecycleAt(now).end(staff, cancelled.id, 'cancelled');
  const moveFrom = await book('Aitor Muñoz Gil');
  const holds = new MongoSlotHolds(models, noop);
  const moved = await new RescheduleService(appointments, holds, lifecycleAt(now), () => now).moveById(
    staff,
    moveFrom.id,
    new Date(slots.next()),
  );
  return {
    booked: booked.id,
    attended: attended.id,
    cancelled: cancelled.id,
    moveFrom: moveFrom.id,
    moved: moved.id,
    patient: booked.patientId,
  };
}

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose
    .createConnection(mongoUrl, { dbName: uniqueName('appointments_seed') })
    .asPromise();
  models = appointmentModels(connection);
  waitlists = waitlistModels(connection);
  await syncIndexes(connection);
  appointments = new MongoAppointmentRepository(models, noop);
  const patients = new MongoPatientReadModel(models);
  const directory = new PatientDirectory(patients, { fetch: async () => undefined });
  bookings = new BookingService(
    appointments,
    new MongoTransitionRepository(models, noop),
    lifecycleAt(now),
    directory,
  );

  const asOf = new Date('2021-01-04T09:00:00Z');
  expect(
    await seedPatients(
      models,
      [lucia, ivan].map((p) => ({ ...p, asOf })),
    ),
  ).toBe(2);
  // booked 1, attended 2 (check-in and final), cancelled 1, moved away 1, moved here 1.
  expect(await seedAppointments(models, seeded)).toBe(6);
  expect(
    await seedWaitlist(waitlists, [
      { pacientId: lucia.id, day: waitingDay, joinedAt: past(1, 12) },
      { pacientId: ivan.id, day: waitingDay, joinedAt: past(1, 13) },
    ]),
  ).toBe(2);
  written = await writeThroughTheService();
  await new MongoWaitlistRepository(waitlists, noop).join({
    patientId: uniqueId(),
    day: waitingDay,
    joinedAt: now,
  });
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

/** A document as stored, without its events (the service's own writes still hold them). */
const shapeOf = async (collection: mongoose.Collection, filter: object) =>
  documentShape((await collection.findOne(filter))!, OUTBOX_FIELDS);

it('stores documents of the same shape as booking, check-in, a record, a cancellation and a move', async () => {
  const kinds = [
    ['booked', 'active'],
    ['attended', 'checkin'],
    ['attended', 'final'],
    ['cancelled', 'final'],
    ['moveFrom', 'final'],
    ['moved', 'active'],
  ] as const;
  for (const [which, kind] of kinds) {
    const shape = (appointmentId: string) =>
      shapeOf(models.Appointment.collection, { appointmentId, kind }).then((paths) => ({
        which,
        kind,
        paths,
      }));
    expect(await shape(id[which])).toEqual(await shape(written[which]));
  }
  const patients = models.Patient.collection;
  expect(await shapeOf(patients, { _id: lucia.id })).toEqual(
    await shapeOf(patients, { _id: written.patient }),
  );
  // The line: the two seeded entries, then the one `join` wrote.
  const line = await waitlists.WaitlistEntry.find({ day: waitingDay }).sort({ joinedAt: 1 }).lean();
  const [first, second, joined] = line.map((entry) => documentShape(entry));
  expect([first, second]).toEqual([joined, joined]);
});

it('is listed, searched and looked up as the service’s own appointments are', async () => {
  const all = await appointments.page({ page: 1, limit: 20, search: '', sort: 'date', status: 'all' });
  const listed = new Map(all.items.map((a) => [a.id, a]));
  expect(listed.get(id.booked)).toMatchObject({
    status: 'booked',
    date: bookedSlot,
    user: { name: lucia.name },
  });
  expect(listed.get(id.attended)).toMatchObject({
    status: 'attended',
    date: past(3, 9),
    checkedInAt: expect.any(Date),
  });
  expect(listed.get(id.cancelled)).toMatchObject({ status: 'cancelled', refundable: true });
  expect(listed.get(id.moveFrom)).toMatchObject({ status: 'cancelled', rescheduledTo: id.moved });
  expect(listed.get(id.moveFrom)).not.toHaveProperty('refundable');
  expect(listed.get(id.moved)).toMatchObject({
    status: 'booked',
    rescheduledFrom: { id: id.moveFrom, date: past(5, 11) },
    calendar: { uid: id.moveFrom, sequence: 1 },
  });
  // The names folded, the phone and e-mail as the auth service sends them.
  const search = async (text: string) =>
    (await appointments.page({ page: 1, limit: 10, search: text, sort: 'date', status: 'all' })).items.map(
      (a) => a.id,
    );
  expect(await search('nunez vazquez')).toEqual([id.booked]);
  expect(await search('+34 612 345 678')).toEqual([id.booked]);
  expect(await search(lucia.email.toUpperCase())).toEqual([id.booked]);
  expect((await appointments.listByPatient(ruben.id)).map((a) => a.id)).toEqual([id.moved, id.moveFrom]);
  expect(await new MongoPatientReadModel(models).find(lucia.id)).toEqual({
    id: lucia.id,
    name: lucia.name,
    email: lucia.email.toLowerCase(),
    phone: '34612345678',
  });
  const line = await new MongoWaitlistRepository(waitlists, noop).line(waitingDay);
  expect(line.slice(0, 2).map((entry) => entry.patientId)).toEqual([lucia.id, ivan.id]);
});

it('holds its slot and its patient as a booking does', async () => {
  expect(await appointments.bookedSlotsFrom(now)).toEqual(expect.arrayContaining([bookedSlot, movedSlot]));
  // Lucía's seeded appointment is her live one: she cannot book another.
  await expect(bookings.bookForPatient(doctor, lucia.id, new Date(slots.next()))).rejects.toMatchObject({
    status: 409,
  });
  const newcomer = { id: uniqueId(), name: 'Javier Alonso Gil', email: 'javier@example.test' };
  expect(await new MongoPatientReadModel(models).save(newcomer, now, true)).toBe(true);
  await expect(bookings.bookForPatient(doctor, newcomer.id, bookedSlot)).rejects.toMatchObject({
    status: 409,
    message: 'Ese horario ya no está disponible',
  });
});
