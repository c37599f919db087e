import type { RoomReservationView } from '@crm/contracts';
import { mintedCaller } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import { callersByRole, type Caller } from './factories/callers';
import { freshWeekday, localSlot } from './factories/slots';

/**
 * `GET /room-calendar/reservations?room=`: every reservation of a room from now on, whoever holds it
 * (staff share the rooms and must see who has each hour), and cancelling from that list: a doctor
 * only their own, an admin any.
 */
let stack: Stack;
let doctor: Caller;
let admin: Caller;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'rooms'] });
  ({ DOCTOR: doctor, ADMIN: admin } = await callersByRole(stack));
});
afterAll(async () => {
  await stack?.stop();
});

async function reserve(caller: Caller, room: string, dates: string[], name?: string): Promise<string> {
  const doctorRef = name ? { id: caller.id, name } : undefined;
  const response = await stack.api.post('/room-calendar', { room, dates, doctor: doctorRef }, caller.token);
  expect(response.status).toBe(201);
  return response.body.id as string;
}

const listOf = async (room: string, token: string): Promise<RoomReservationView[]> => {
  const response = await stack.api.get<RoomReservationView[]>(
    `/room-calendar/reservations?room=${room}`,
    token,
  );
  expect(response.status).toBe(200);
  return response.body;
};

describe('GET /room-calendar/reservations', () => {
  it("lists every holder's reservations of the room, by first slot, and none of another room", async () => {
    const day = freshWeekday();
    const later = await reserve(doctor, 'consulta-2', [localSlot(day, 12), localSlot(day, 13)], 'Dra. Ruiz');
    const earlier = await reserve(admin, 'consulta-2', [localSlot(day, 9)]);
    const elsewhere = await reserve(doctor, 'consulta-3', [localSlot(day, 9)]);

    const seenByDoctor = await listOf('consulta-2', doctor.token);
    const ids = seenByDoctor.map((reservation) => reservation.id);
    expect(ids).toContain(later);
    expect(ids).toContain(earlier);
    expect(ids).not.toContain(elsewhere);
    expect(ids.indexOf(earlier)).toBeLessThan(ids.indexOf(later));
    const doctors = seenByDoctor.find((reservation) => reservation.id === later)!;
    expect(doctors).toMatchObject({
      room: 'consulta-2',
      doctor: { id: doctor.id, name: 'Dra. Ruiz' },
      dates: [localSlot(day, 12), localSlot(day, 13)],
    });
    expect(seenByDoctor.find((reservation) => reservation.id === earlier)!.doctor.id).toBe(admin.id);
    expect((await listOf('consulta-2', admin.token)).map((reservation) => reservation.id)).toEqual(ids);
  });

  it('drops a cancelled reservation from the list', async () => {
    const id = await reserve(doctor, 'consulta-2', [localSlot(freshWeekday(), 15)]);
    expect((await stack.api.delete(`/room-calendar/${id}`, doctor.token)).status).toBe(200);
    expect((await listOf('consulta-2', doctor.token)).map((reservation) => reservation.id)).not.toContain(id);
  });

  it('refuses a missing or malformed room with a Spanish message on `room`', async () => {
    for (const query of ['', '?room=%24where', '?room=Consulta%201']) {
      const response = await stack.api.get(`/room-calendar/reservations${query}`, doctor.token);
      expect(response.status).toBe(400);
      expect(response.body.errors[0]).toMatchObject({ field: 'room' });
      expect(response.body.message).toMatch(/consulta/i);
    }
  });
});

describe('cancelling from the list', () => {
  it("refuses a DOCTOR cancelling another doctor's reservation, which stays listed", async () => {
    const other = mintedCaller('DOCTOR');
    const id = await reserve(other, 'consulta-4', [localSlot(freshWeekday(), 11)]);
    const refused = await stack.api.delete(`/room-calendar/${id}`, doctor.token);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('Solo puede cancelar sus propias reservas');
    expect((await listOf('consulta-4', doctor.token)).map((reservation) => reservation.id)).toContain(id);
  });

  it("lets an ADMIN cancel a doctor's reservation from the list", async () => {
    const id = await reserve(doctor, 'consulta-4', [localSlot(freshWeekday(), 14)]);
    expect((await stack.api.delete(`/room-calendar/${id}`, admin.token)).status).toBe(200);
    expect((await listOf('consulta-4', admin.token)).map((reservation) => reservation.id)).not.toContain(id);
  });
});
