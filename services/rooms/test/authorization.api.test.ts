import type { Role } from '@crm/contracts';
import { mintedCaller } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import {
  describeAuthorizationMatrix,
  itRefusesHostileTokens,
  type MatrixRow,
} from '../../../test-support/authorization-matrix';
import { callersByRole, type Caller } from './factories/callers';
import { freshWeekday, localSlot } from './factories/slots';

const UNKNOWN_ID = '0123456789abcdef01234567';

/**
 * Every rooms endpoint × every kind of caller → the status expected with an empty body (so no call
 * changes anything): 401/403 where the caller may not call it, the endpoint's own answer where it may.
 */
const MATRIX: MatrixRow[] = [
  // statuses: anonymous, PACIENT, DOCTOR, ADMIN, SERVICE_ACCOUNT
  ['get', '/rooms', [200, 200, 200, 200, 200]],
  ['get', '/room-calendar/reserved-dates', [401, 403, 200, 200, 403]],
  ['get', '/room-calendar/reserved-dates?room=consulta-1', [401, 403, 200, 200, 403]],
  ['get', '/room-calendar/mine', [401, 403, 200, 200, 403]],
  ['get', '/room-calendar/reservations?room=consulta-1', [401, 403, 200, 200, 403]],
  ['get', '/room-calendar/reservations', [401, 403, 400, 400, 403]],
  ['post', '/room-calendar', [401, 403, 400, 400, 403]],
  ['delete', `/room-calendar/${UNKNOWN_ID}`, [401, 403, 404, 404, 403]],
  ['delete', '/room-calendar/not-an-id', [401, 403, 400, 400, 403]],
];

let stack: Stack;
let callers: Record<Role, Caller>;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'rooms'] });
  callers = await callersByRole(stack);
});
afterAll(async () => {
  await stack?.stop();
});

describeAuthorizationMatrix('authorization matrix', MATRIX, () => ({
  stack,
  tokens: {
    PACIENT: callers.PACIENT.token,
    DOCTOR: callers.DOCTOR.token,
    ADMIN: callers.ADMIN.token,
    SERVICE_ACCOUNT: callers.SERVICE_ACCOUNT.token,
  },
}));

describe('who may cancel a reservation', () => {
  async function reservationOfTheDoctor(): Promise<string> {
    const response = await stack.api.post(
      '/room-calendar',
      { room: 'consulta-1', dates: [localSlot(freshWeekday(), 10)] },
      callers.DOCTOR.token,
    );
    expect(response.status).toBe(201);
    return response.body.id;
  }

  it.each([
    ['a patient', () => callers.PACIENT.token, 403],
    ['the kiosk', () => callers.SERVICE_ACCOUNT.token, 403],
    ['another doctor', () => mintedCaller('DOCTOR').token, 403],
  ])("refuses %s cancelling a doctor's reservation, which stays", async (_label, token, status) => {
    const id = await reservationOfTheDoctor();
    expect((await stack.api.delete(`/room-calendar/${id}`, token())).status).toBe(status);
    const mine = await stack.api.get('/room-calendar/mine', callers.DOCTOR.token);
    expect(mine.body.map((reservation: { id: string }) => reservation.id)).toContain(id);
  });

  it("lets an admin cancel any doctor's reservation", async () => {
    const id = await reservationOfTheDoctor();
    expect((await stack.api.delete(`/room-calendar/${id}`, callers.ADMIN.token)).status).toBe(200);
  });
});

describe('tokens the gateway and the service refuse', () => {
  const doctor = () => ({ id: callers.DOCTOR.id, rol: 'DOCTOR' as const });
  const reservation = () => ({ room: 'consulta-1', dates: [localSlot(freshWeekday(), 9)] });

  itRefusesHostileTokens(doctor, (token) => stack.api.post('/room-calendar', reservation(), token));

  it('refuses a signed-out session', async () => {
    const session = await stack.api.post('/auth/signIn', {
      email: 'doctor@stack.test',
      password: 'Doctor1234!',
    });
    const token = session.body.sessiontoken as string;
    expect((await stack.api.post('/auth/signOut', {}, token)).status).toBe(200);
    expect((await stack.api.post('/room-calendar', reservation(), token)).status).toBe(401);
  });
});

describe('the service on its own, without the gateway in front', () => {
  it('still refuses an anonymous reservation and a patient', async () => {
    const direct = `${stack.components.rooms!.url}/room-calendar`;
    const anonymous = await fetch(direct, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
    const patient = await fetch(direct, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${callers.PACIENT.token}` },
      body: '{}',
    });
    expect(patient.status).toBe(403);
  });
});
