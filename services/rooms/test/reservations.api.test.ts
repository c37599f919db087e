import type { Role } from '@crm/contracts';
import { eventually, listenForMessages, mintedCaller, uniqueId } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import { MongoRoomRepository } from '../src/data/room.repository';
import type { RoomsService } from '../src/app';
import { CONSULTING_ROOMS } from '../src/domain/room-catalogue';
import { callersByRole, type Caller } from './factories/callers';
import { comingSaturday, freshWeekday, localSlot, pastWeekday, slotsOf } from './factories/slots';

const NO_SLOT = 'Debes seleccionar al menos un horario para reservar la consulta';

let stack: Stack;
let rooms: RoomsService;
let callers: Record<Role, Caller>;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'rooms'] });
  rooms = stack.components.rooms!.handle as RoomsService;
  callers = await callersByRole(stack);
});
afterAll(async () => {
  await stack?.stop();
});

const reserve = (body: unknown, token = callers.DOCTOR.token) =>
  stack.api.post('/room-calendar', body, token);
const reservedIn = async (room: string) =>
  (await stack.api.get(`/room-calendar/reserved-dates?room=${room}`, callers.DOCTOR.token)).body as string[];

describe('GET /rooms', () => {
  it("lists the centre's consulting rooms to anyone, without a token", async () => {
    const response = await stack.api.get('/rooms');
    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(CONSULTING_ROOMS.length);
    expect(response.body[0]).toEqual({
      _id: 'consulta-1',
      id: 'consulta-1',
      name: 'Consulta 1 — Medicina general',
      floor: 0,
      equipment: expect.arrayContaining(['Camilla']),
      description: expect.any(String),
      active: true,
    });
  });

  it('seeds the rooms once, keeps an operator taking a room out of service, and hides that room', async () => {
    const repository = new MongoRoomRepository(rooms.models.Room);
    await rooms.models.Room.updateOne({ _id: 'consulta-4' }, { $set: { active: false } });
    try {
      expect(await repository.addMissing(CONSULTING_ROOMS)).toBe(0);
      expect(await rooms.models.Room.countDocuments()).toBe(CONSULTING_ROOMS.length);
      const listed = (await stack.api.get('/rooms')).body.map((room: { id: string }) => room.id);
      expect(listed).toEqual(['consulta-1', 'consulta-2', 'consulta-3']);
      const refused = await reserve({ room: 'consulta-4', dates: [localSlot(freshWeekday(), 10)] });
      expect(refused).toMatchObject({ status: 400, body: { errors: [{ field: 'room' }] } });
    } finally {
      await rooms.models.Room.updateOne({ _id: 'consulta-4' }, { $set: { active: true } });
    }
  });
});

describe('POST /room-calendar', () => {
  it('reserves several slots for the calling doctor and answers 201 with the normalised slots', async () => {
    const day = freshWeekday();
    const response = await reserve({ room: 'consulta-2', dates: [localSlot(day, 11), localSlot(day, 9)] });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      message: expect.any(String),
      id: expect.stringMatching(/^[a-f0-9]{24}$/),
      room: 'consulta-2',
      dates: [localSlot(day, 9), localSlot(day, 11)],
    });
    expect(await reservedIn('consulta-2')).toEqual(
      expect.arrayContaining([localSlot(day, 9), localSlot(day, 11)]),
    );
    const mine = await stack.api.get('/room-calendar/mine', callers.DOCTOR.token);
    expect(mine.body).toContainEqual({
      id: response.body.id,
      room: 'consulta-2',
      doctor: { id: callers.DOCTOR.id },
      dates: [localSlot(day, 9), localSlot(day, 11)],
      createdAt: expect.any(String),
    });
  });

  it('accepts the first (08:00) and the last (17:00) slot of the day, Canary time', async () => {
    const day = freshWeekday();
    const response = await reserve({ room: 'consulta-1', dates: [localSlot(day, 8), localSlot(day, 17)] });
    expect(response.status).toBe(201);
  });

  it('accepts a slot written with a time-zone offset and stores the same instant', async () => {
    const day = freshWeekday();
    const utc = new Date(localSlot(day, 12));
    const withOffset = new Date(utc.getTime() + 3_600_000).toISOString().replace('Z', '+01:00');
    const response = await reserve({ room: 'consulta-1', dates: [withOffset] });
    expect(response).toMatchObject({ status: 201, body: { dates: [utc.toISOString()] } });
  });

  it.each([
    ['a Saturday', () => [localSlot(comingSaturday(), 10)]],
    ['07:00 local', () => [localSlot(freshWeekday(), 7)]],
    ['18:00 local', () => [localSlot(freshWeekday(), 18)]],
    ['half past', () => [localSlot(freshWeekday(), 9, 30)]],
    ['a slot in the past', () => [localSlot(pastWeekday(), 10)]],
    ['the same slot twice', () => Array(2).fill(localSlot(freshWeekday(), 10))],
    ['one bad slot among good ones', () => [localSlot(freshWeekday(), 10), localSlot(comingSaturday(), 10)]],
  ])('refuses %s with 400 on the dates field and keeps nothing', async (_label, dates) => {
    const slots = dates();
    const response = await reserve({ room: 'consulta-3', dates: slots });
    expect(response.status).toBe(400);
    expect(response.body.message).toEqual(expect.any(String));
    expect(response.body.errors.length).toBeGreaterThan(0);
    expect(response.body.errors.every((error: { field: string }) => error.field === 'dates')).toBe(true);
    expect(await reservedIn('consulta-3')).toEqual(expect.not.arrayContaining(slots));
    expect(
      await rooms.models.SlotLock.countDocuments({
        room: 'consulta-3',
        date: { $in: slots.map((slot) => new Date(slot)) },
      }),
    ).toBe(0);
  });

  it.each([
    ['an empty list', { room: 'consulta-1', dates: [] }],
    ['no dates at all', { room: 'consulta-1' }],
  ])('refuses %s with the Spanish message on the dates field', async (_label, body) => {
    const response = await reserve(body);
    expect(response.status).toBe(400);
    expect(response.body).toEqual({ message: NO_SLOT, errors: [{ message: NO_SLOT, field: 'dates' }] });
  });

  it('refuses more than 10 slots in one request', async () => {
    const day = freshWeekday();
    const eleven = [...slotsOf(day), localSlot(freshWeekday(), 8)];
    const response = await reserve({ room: 'consulta-1', dates: eleven });
    expect(response).toMatchObject({ status: 400, body: { errors: [{ field: 'dates' }] } });
  });

  it('refuses an unknown room with 400 on the room field', async () => {
    const response = await reserve({ room: 'consulta-99', dates: [localSlot(freshWeekday(), 10)] });
    expect(response).toMatchObject({
      status: 400,
      body: { errors: [{ field: 'room', message: 'La consulta no existe' }] },
    });
  });

  it.each([
    ['an operator as room', () => ({ room: { $gt: '' }, dates: [localSlot(freshWeekday(), 10)] })],
    ['an operator as dates', () => ({ room: 'consulta-1', dates: { $ne: null } })],
    [
      'an operator as doctor',
      () => ({ room: 'consulta-1', doctor: { $ne: null }, dates: [localSlot(freshWeekday(), 10)] }),
    ],
    ['a number as room', () => ({ room: 42, dates: [localSlot(freshWeekday(), 10)] })],
    [
      'a room id with odd characters',
      () => ({ room: 'consulta-1|x', dates: [localSlot(freshWeekday(), 10)] }),
    ],
    ['a string as dates', () => ({ room: 'consulta-1', dates: localSlot(freshWeekday(), 10) })],
    ['numbers as dates', () => ({ room: 'consulta-1', dates: [Date.now() + 86_400_000] })],
    ['a date that is not ISO', () => ({ room: 'consulta-1', dates: ['next monday at ten'] })],
    [
      'a doctor id that is not an id',
      () => ({ room: 'consulta-1', doctor: 'x', dates: [localSlot(freshWeekday(), 10)] }),
    ],
    ['an array as body', () => [{ room: 'consulta-1' }]],
  ])('refuses %s with 400', async (_label, body) => {
    const response = await reserve(body());
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: expect.any(String) });
  });

  it('refuses a body that is not JSON with 400', async () => {
    const response = await stack.api.post('/room-calendar', '{"room": ', callers.DOCTOR.token);
    expect(response.status).toBe(400);
  });

  it("refuses a doctor reserving in another doctor's name with 403, and keeps nothing", async () => {
    const day = freshWeekday();
    const response = await reserve({ room: 'consulta-1', doctor: uniqueId(), dates: [localSlot(day, 10)] });
    expect(response).toMatchObject({ status: 403, body: { errors: [{ field: 'doctor' }] } });
    expect(await reservedIn('consulta-1')).not.toContain(localSlot(day, 10));
  });

  it('lets a doctor name themselves, with a display name', async () => {
    const day = freshWeekday();
    const doctor = mintedCaller('DOCTOR');
    const response = await reserve(
      { room: 'consulta-1', doctor: { id: doctor.id, name: 'Dra. Ana Pérez' }, dates: [localSlot(day, 10)] },
      doctor.token,
    );
    expect(response.status).toBe(201);
    const mine = await stack.api.get('/room-calendar/mine', doctor.token);
    expect(mine.body).toEqual([
      expect.objectContaining({ doctor: { id: doctor.id, name: 'Dra. Ana Pérez' } }),
    ]);
  });

  it('lets an admin reserve for a given doctor, who then sees it as theirs', async () => {
    const day = freshWeekday();
    const doctor = mintedCaller('DOCTOR');
    const response = await reserve(
      { room: 'consulta-3', doctor: doctor.id, dates: [localSlot(day, 15)] },
      callers.ADMIN.token,
    );
    expect(response.status).toBe(201);
    const mine = await stack.api.get('/room-calendar/mine', doctor.token);
    expect(mine.body.map((reservation: { id: string }) => reservation.id)).toEqual([response.body.id]);
    const adminOwn = await stack.api.get('/room-calendar/mine', callers.ADMIN.token);
    expect(adminOwn.body.map((reservation: { id: string }) => reservation.id)).not.toContain(
      response.body.id,
    );
  });

  it('answers 409 naming the slot when it is already reserved', async () => {
    const slot = localSlot(freshWeekday(), 13);
    expect((await reserve({ room: 'consulta-2', dates: [slot] })).status).toBe(201);
    const second = await reserve({ room: 'consulta-2', dates: [slot] }, mintedCaller('DOCTOR').token);
    expect(second.status).toBe(409);
    expect(second.body).toEqual({
      message: expect.any(String),
      errors: [{ message: expect.any(String), field: 'dates' }],
      taken: [slot],
    });
  });

  it('lets two rooms be reserved for the same hour', async () => {
    const slot = localSlot(freshWeekday(), 14);
    expect((await reserve({ room: 'consulta-1', dates: [slot] })).status).toBe(201);
    expect((await reserve({ room: 'consulta-2', dates: [slot] })).status).toBe(201);
  });
});

describe('GET /room-calendar/reserved-dates', () => {
  it("lists one room's reserved instants with ?room, and every room's once without it", async () => {
    const day = freshWeekday();
    await reserve({ room: 'consulta-1', dates: [localSlot(day, 9), localSlot(day, 10)] });
    await reserve({ room: 'consulta-2', dates: [localSlot(day, 10)] });

    const room2 = await reservedIn('consulta-2');
    expect(room2).toContain(localSlot(day, 10));
    expect(room2).not.toContain(localSlot(day, 9));

    const all = (await stack.api.get('/room-calendar/reserved-dates', callers.ADMIN.token)).body as string[];
    expect(all).toEqual(expect.arrayContaining([localSlot(day, 9), localSlot(day, 10)]));
    expect(all.filter((instant) => instant === localSlot(day, 10))).toHaveLength(1);
    expect([...all].sort()).toEqual(all);
  });

  it('answers an empty list for a room without reservations, and 400 for a malformed room', async () => {
    expect(
      (await stack.api.get('/room-calendar/reserved-dates?room=consulta-77', callers.DOCTOR.token)).body,
    ).toEqual([]);
    expect(
      (await stack.api.get('/room-calendar/reserved-dates?room=%24where', callers.DOCTOR.token)).status,
    ).toBe(400);
  });
});

describe('DELETE /room-calendar/:id', () => {
  it('cancels a reservation, frees its slots for anyone, and lets them be reserved again', async () => {
    const day = freshWeekday();
    const dates = [localSlot(day, 11), localSlot(day, 12)];
    const first = await reserve({ room: 'consulta-3', dates });
    expect(first.status).toBe(201);

    const cancelled = await stack.api.delete(`/room-calendar/${first.body.id}`, callers.DOCTOR.token);
    expect(cancelled).toMatchObject({ status: 200, body: { id: first.body.id, room: 'consulta-3', dates } });
    expect(await reservedIn('consulta-3')).toEqual(expect.not.arrayContaining(dates));
    const mine = await stack.api.get('/room-calendar/mine', callers.DOCTOR.token);
    expect(mine.body.map((reservation: { id: string }) => reservation.id)).not.toContain(first.body.id);

    expect((await stack.api.delete(`/room-calendar/${first.body.id}`, callers.DOCTOR.token)).status).toBe(
      404,
    );
    const again = await reserve({ room: 'consulta-3', dates }, mintedCaller('DOCTOR').token);
    expect(again.status).toBe(201);
  });
});

describe('events', () => {
  it('publishes reservation reserved, then released, through the outbox', async () => {
    const listener = await listenForMessages<{ name: string; data: Record<string, unknown> }>(
      stack.amqpUrl,
      stack.exchange,
      'rooms.reservation.*.v1',
    );
    try {
      const day = freshWeekday();
      const reserved = await reserve({ room: 'consulta-1', dates: [localSlot(day, 16), localSlot(day, 15)] });
      expect(reserved.status).toBe(201);
      const expectedData = {
        id: reserved.body.id,
        room: 'consulta-1',
        doctorId: callers.DOCTOR.id,
        dates: [localSlot(day, 15), localSlot(day, 16)],
      };
      const published = await listener.waitFor((message) => message.body.data.id === reserved.body.id);
      expect(published.routingKey).toBe('rooms.reservation.reserved.v1');
      expect(published.body).toMatchObject({ name: 'rooms.reservation.reserved.v1', data: expectedData });

      await stack.api.delete(`/room-calendar/${reserved.body.id}`, callers.DOCTOR.token);
      const released = await listener.waitFor(
        (message) =>
          message.routingKey === 'rooms.reservation.released.v1' && message.body.data.id === reserved.body.id,
      );
      expect(released.body.data).toEqual(expectedData);
      // The released copy carries the event; the relay removes it only after the broker confirmed it.
      const drained = await eventually(
        async () => {
          const stored = await rooms.models.ReleasedReservation.findById(reserved.body.id).lean<{
            status: string;
            outbox?: unknown[];
          }>();
          return stored && (stored.outbox ?? []).length === 0 ? stored : undefined;
        },
        10000,
        'outbox drained',
      );
      expect(await rooms.models.Reservation.exists({ _id: reserved.body.id })).toBeNull();
      expect(drained?.status).toBe('released');
    } finally {
      await listener.close();
    }
  });
});
