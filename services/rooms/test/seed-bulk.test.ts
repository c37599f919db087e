import mongoose, { type Connection } from 'mongoose';
import type { Role } from '@crm/contracts';
import { OUTBOX_FIELDS } from '@crm/event-bus';
import { createLogger, type AuthenticatedUser } from '@crm/server-kit';
import { syncIndexes } from '@crm/server-kit/service';
import { documentShape, infrastructure, uniqueId, uniqueName } from '@crm/testing';
import { reservationModels, slotKey, type ReservationModels } from '../src/data/reservation.model';
import { MongoReservationRepository } from '../src/data/reservation.repository';
import { seedReservations } from '../src/data/reservation.seed-bulk';
import { roomModel } from '../src/data/room.model';
import { MongoRoomRepository } from '../src/data/room.repository';
import { SlotLocks } from '../src/data/slot-locks';
import { CONSULTING_ROOMS } from '../src/domain/room-catalogue';
import { ReservationService } from '../src/domain/reservation.service';
import { SlotsTakenConflict } from '../src/domain/slots-taken.conflict';
import { freshWeekday, localSlot } from './factories/slots';

/**
 * The bulk seed module (bench/growth) stores reservations as `reserve` and `release` leave them,
 * with the slot locks of an active one, and the rooms' rules and reads see them.
 */
let connection: Connection;
let models: ReservationModels;
let rooms: ReservationService;
const caller = (rol: Role, id = uniqueId()): AuthenticatedUser => ({
  id,
  rol,
  tokenId: uniqueId(),
  issuedAt: 0,
  expiresAt: 0,
});
const admin = caller('ADMIN');
const doctor = { id: uniqueId(), name: 'Dra. Marta Ramos' };
const day = freshWeekday();
const at = (hour: number) => localSlot(day, hour);
const seededActive = { id: uniqueId(), dates: [at(9), at(10)] };
const seededReleased = { id: uniqueId(), dates: [at(11)] };
let reservedId: string;
let releasedId: string;

beforeAll(async () => {
  const { mongoUrl } = await infrastructure();
  connection = await mongoose.createConnection(mongoUrl, { dbName: uniqueName('rooms_seed') }).asPromise();
  models = reservationModels(connection);
  const roomRepository = new MongoRoomRepository(roomModel(connection));
  await syncIndexes(connection);
  await roomRepository.addMissing(CONSULTING_ROOMS);
  rooms = new ReservationService(
    roomRepository,
    new MongoReservationRepository(
      models,
      new SlotLocks(models, createLogger('rooms-seed', 'silent')),
      () => {},
    ),
  );
  const createdAt = new Date(Date.now() - 7 * 86_400_000);
  expect(
    await seedReservations(models, [
      {
        ...seededActive,
        room: 'consulta-1',
        doctor,
        dates: seededActive.dates.map((d) => new Date(d)),
        createdAt,
      },
      {
        ...seededReleased,
        room: 'consulta-1',
        doctor,
        dates: seededReleased.dates.map((d) => new Date(d)),
        createdAt,
        releasedAt: new Date(Date.now() - 86_400_000),
      },
    ]),
  ).toEqual({ active: 1, released: 1, locks: 2 });
  // The service's own path, in another room: an admin reserves in a named doctor's name, then
  // reserves and releases a second time.
  const body = { room: 'consulta-2', doctor, dates: [at(9), at(10)] };
  reservedId = (await rooms.reserve(admin, body)).id;
  releasedId = (await rooms.reserve(admin, { ...body, dates: [at(11)] })).id;
  await rooms.release(admin, releasedId);
});

afterAll(async () => {
  await connection?.dropDatabase();
  await connection?.close();
});

const shapeOf = async (collection: mongoose.Collection, id: unknown) =>
  // Reserving and releasing leave their events in the outbox; seeded ones were published.
  documentShape((await collection.findOne({ _id: id as never }))!, OUTBOX_FIELDS);
const oid = (id: string) => new mongoose.Types.ObjectId(id);

it('stores active and released reservations and slot locks of the same shape as reserve and release', async () => {
  const { Reservation, ReleasedReservation, SlotLock } = models;
  expect(await shapeOf(Reservation.collection, oid(seededActive.id))).toEqual(
    await shapeOf(Reservation.collection, oid(reservedId)),
  );
  expect(await shapeOf(ReleasedReservation.collection, oid(seededReleased.id))).toEqual(
    await shapeOf(ReleasedReservation.collection, oid(releasedId)),
  );
  expect(await shapeOf(SlotLock.collection, slotKey('consulta-1', new Date(at(9))))).toEqual(
    await shapeOf(SlotLock.collection, slotKey('consulta-2', new Date(at(9)))),
  );
});

it('is seen by the rooms’ reads and rules: listed, its slots held by its locks, a released one free', async () => {
  expect(await rooms.reservedDates('consulta-1')).toEqual(seededActive.dates);
  expect(await rooms.forRoom('consulta-1')).toEqual([
    expect.objectContaining({ id: seededActive.id, doctor, dates: seededActive.dates }),
  ]);
  const mine = await rooms.mine(caller('DOCTOR', doctor.id));
  expect(mine.map((r) => r.id).sort()).toEqual([seededActive.id, reservedId].sort());

  const other = caller('DOCTOR');
  const refused = rooms.reserve(other, { room: 'consulta-1', dates: [at(10), at(12)] });
  await expect(refused).rejects.toBeInstanceOf(SlotsTakenConflict);
  await expect(refused).rejects.toMatchObject({ taken: [at(10)] });
  // The released reservation's slot is free again; releasing it again finds nothing active.
  expect(await rooms.reserve(other, { room: 'consulta-1', dates: [at(11)] })).toMatchObject({
    dates: [at(11)],
  });
  await expect(rooms.release(admin, seededReleased.id)).rejects.toMatchObject({ status: 404 });
});
