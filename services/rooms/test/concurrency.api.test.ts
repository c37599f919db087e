import { Types } from 'mongoose';
import { mintedCaller } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import type { RoomsService } from '../src/app';
import { slotKey, type ReservationDocument } from '../src/data/reservation.model';
import { freshWeekday, localSlot } from './factories/slots';

let stack: Stack;
let rooms: RoomsService;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'rooms'] });
  rooms = stack.components.rooms!.handle as RoomsService;
});
afterAll(async () => {
  await stack?.stop();
});

const reserve = (room: string, dates: string[], token = mintedCaller('DOCTOR').token) =>
  stack.api.post('/room-calendar', { room, dates }, token);
const lockCount = (room: string, dates: string[]) =>
  rooms.models.SlotLock.countDocuments({ _id: { $in: dates.map((date) => slotKey(room, new Date(date))) } });
const activeHolding = (room: string, date: string) =>
  rooms.models.Reservation.countDocuments({ room, status: 'active', dates: new Date(date) });

describe('one reservation per room-slot, settled by the database', () => {
  it('gives a room-slot to exactly one of 20 parallel requests; the other 19 get 409', async () => {
    const slot = localSlot(freshWeekday(), 10);
    const responses = await Promise.all(Array.from({ length: 20 }, () => reserve('consulta-1', [slot])));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    expect(responses.find((response) => response.status === 409)?.body.taken).toEqual([slot]);
    expect(await activeHolding('consulta-1', slot)).toBe(1);
    expect(await lockCount('consulta-1', [slot])).toBe(1);
  });

  it('keeps nothing of a 3-slot request when one slot is taken, so the other two stay free', async () => {
    const day = freshWeekday();
    const [first, middle, last] = [localSlot(day, 9), localSlot(day, 10), localSlot(day, 11)];
    expect((await reserve('consulta-2', [middle])).status).toBe(201);

    const refused = await reserve('consulta-2', [first, middle, last]);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ taken: [middle], errors: [{ field: 'dates' }] });
    expect(await lockCount('consulta-2', [first, last])).toBe(0);
    expect(await activeHolding('consulta-2', first)).toBe(0);

    expect((await reserve('consulta-2', [first, last])).status).toBe(201);
  });

  it('names every taken slot of a refused request', async () => {
    const day = freshWeekday();
    const slots = [8, 9, 10, 11].map((hour) => localSlot(day, hour));
    expect((await reserve('consulta-3', [slots[1]!, slots[3]!])).status).toBe(201);
    const refused = await reserve('consulta-3', slots);
    expect(refused).toMatchObject({ status: 409, body: { taken: [slots[1], slots[3]] } });
    expect(await lockCount('consulta-3', [slots[0]!, slots[2]!])).toBe(0);
  });

  it('never gives one slot to two reservations when 30 overlapping multi-slot requests race', async () => {
    const day = freshWeekday();
    const pool = [8, 9, 10, 11, 12, 13].map((hour) => localSlot(day, hour));
    // Every request wants 1–3 neighbouring slots of the pool, in shuffled order.
    const requests = Array.from({ length: 30 }, (_, i) => {
      const start = i % pool.length;
      const wanted = pool.slice(start, start + 1 + (i % 3));
      return i % 2 ? wanted.reverse() : wanted;
    });
    const responses = await Promise.all(requests.map((dates) => reserve('consulta-4', dates)));
    expect(responses.every((response) => response.status === 201 || response.status === 409)).toBe(true);

    const held = (
      await rooms.models.Reservation.find({ room: 'consulta-4', status: 'active' }).lean<
        ReservationDocument[]
      >()
    ).flatMap((doc) => doc.dates.map((date) => new Date(date).toISOString()));
    expect(new Set(held).size).toBe(held.length);
    const won = responses
      .filter((response) => response.status === 201)
      .flatMap((response) => response.body.dates as string[]);
    expect([...won].sort()).toEqual([...held].sort());
    // Every lock belongs to a slot a reservation holds: the losers left nothing behind.
    expect(await rooms.models.SlotLock.countDocuments({ room: 'consulta-4' })).toBe(held.length);
  });
});

describe('the orphan-lock sweep', () => {
  const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000);
  const orphanLock = (
    room: string,
    slot: string,
    createdAt: Date,
    reservationId = String(new Types.ObjectId()),
  ) =>
    rooms.models.SlotLock.create({
      _id: slotKey(room, new Date(slot)),
      reservationId,
      room,
      date: new Date(slot),
      createdAt,
    });

  it('frees a slot whose lock has no reservation once the grace period is over, and not before', async () => {
    const day = freshWeekday();
    const [stale, fresh] = [localSlot(day, 14), localSlot(day, 15)];
    await orphanLock('consulta-1', stale, minutesAgo(10));
    await orphanLock('consulta-1', fresh, new Date());
    expect((await reserve('consulta-1', [stale])).status).toBe(409);

    expect(await rooms.sweeper.sweep()).toBeGreaterThanOrEqual(1);

    expect((await reserve('consulta-1', [stale])).status).toBe(201);
    expect((await reserve('consulta-1', [fresh])).status).toBe(409);
  });

  it("frees a released reservation's leftover lock, and keeps the locks of active reservations", async () => {
    const day = freshWeekday();
    const [released, active] = [localSlot(day, 16), localSlot(day, 17)];
    const doctor = mintedCaller('DOCTOR');
    const cancelled = await reserve('consulta-2', [released], doctor.token);
    await stack.api.delete(`/room-calendar/${cancelled.body.id}`, doctor.token);
    // As if the lock clean-up after the release had failed.
    await orphanLock('consulta-2', released, minutesAgo(10), cancelled.body.id);
    expect((await reserve('consulta-2', [active])).status).toBe(201);
    await rooms.models.SlotLock.updateMany({ room: 'consulta-2' }, { $set: { createdAt: minutesAgo(10) } });

    await rooms.sweeper.sweep();

    expect(await lockCount('consulta-2', [released])).toBe(0);
    expect((await reserve('consulta-2', [active])).status).toBe(409);
  });

  it('finishes a release that stopped after storing the released copy: the slot is free everywhere', async () => {
    const day = freshWeekday();
    const slot = localSlot(day, 11);
    const doctor = mintedCaller('DOCTOR');
    const reserved = await reserve('consulta-3', [slot], doctor.token);
    expect(reserved.status).toBe(201);
    // As if the process died between inserting the released copy and deleting the active document.
    const active = await rooms.models.Reservation.findById(reserved.body.id).lean<ReservationDocument>();
    await rooms.models.ReleasedReservation.collection.insertOne({
      ...active!,
      outbox: [],
      status: 'released',
      releasedAt: new Date(),
    });
    await rooms.models.SlotLock.updateMany({ room: 'consulta-3' }, { $set: { createdAt: minutesAgo(10) } });

    const reservedDates = await stack.api.get<string[]>('/room-calendar/reserved-dates', doctor.token);
    expect(reservedDates.body).not.toContain(slot);
    expect((await stack.api.delete(`/room-calendar/${reserved.body.id}`, doctor.token)).status).toBe(404);

    await rooms.sweeper.sweep();

    expect(await rooms.models.Reservation.exists({ _id: reserved.body.id })).toBeNull();
    expect(await lockCount('consulta-3', [slot])).toBe(0);
    expect((await reserve('consulta-3', [slot])).status).toBe(201);
  });

  it('moves events not yet relayed to the released copy, in order, when a release comes first', async () => {
    const slot = localSlot(freshWeekday(), 12);
    const doctor = mintedCaller('DOCTOR');
    await rooms.relay.stop();
    try {
      const reserved = await reserve('consulta-3', [slot], doctor.token);
      expect((await stack.api.delete(`/room-calendar/${reserved.body.id}`, doctor.token)).status).toBe(200);
      const released = await rooms.models.ReleasedReservation.findById(
        reserved.body.id,
      ).lean<ReservationDocument>();
      expect(released?.outbox?.map((event) => event.name)).toEqual([
        'rooms.reservation.reserved.v1',
        'rooms.reservation.released.v1',
      ]);
      expect(await rooms.models.Reservation.exists({ _id: reserved.body.id })).toBeNull();
    } finally {
      rooms.relay.start();
    }
  });

  it('removes the locks of slots that have passed', async () => {
    const past = new Date(Date.now() - 3_600_000).toISOString();
    await orphanLock('consulta-3', past, new Date());
    await rooms.sweeper.sweep();
    expect(await lockCount('consulta-3', [past])).toBe(0);
  });
});
