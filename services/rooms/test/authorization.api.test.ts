import type { Role } from '@crm/contracts';
import { hostileTokens } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import { callersByRole, mintedCaller, type Caller } from './factories/callers';
import { freshWeekday, localSlot } from './factories/slots';

type CallerKind = 'anonymous' | Role;
const CALLERS: CallerKind[] = ['anonymous', 'PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'];
const UNKNOWN_ID = '0123456789abcdef01234567';

/**
 * Every rooms endpoint × every kind of caller → the status expected with an empty body (so no call
 * changes anything): 401/403 where the caller may not call it, the endpoint's own answer where it may.
 */
const MATRIX: Array<[method: 'get' | 'post' | 'delete', path: string, expected: Record<CallerKind, number>]> =
  [
    ['get', '/rooms', { anonymous: 200, PACIENT: 200, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 200 }],
    [
      'get',
      '/room-calendar/reserved-dates',
      { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 },
    ],
    [
      'get',
      '/room-calendar/reserved-dates?room=consulta-1',
      { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 },
    ],
    [
      'get',
      '/room-calendar/mine',
      { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 },
    ],
    [
      'post',
      '/room-calendar',
      { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 },
    ],
    [
      'delete',
      `/room-calendar/${UNKNOWN_ID}`,
      { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
    ],
    [
      'delete',
      '/room-calendar/not-an-id',
      { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 },
    ],
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

const call = (method: 'get' | 'post' | 'delete', path: string, token?: string) =>
  method === 'get'
    ? stack.api.get(path, token)
    : method === 'post'
      ? stack.api.post(path, {}, token)
      : stack.api.delete(path, token);

describe('authorization matrix', () => {
  const cases = MATRIX.flatMap(([method, path, expected]) =>
    CALLERS.map(
      (caller) => [`${method.toUpperCase()} ${path}`, caller, method, path, expected[caller]] as const,
    ),
  );

  it.each(cases)('%s as %s', async (_label, caller, method, path, status) => {
    const response = await call(method, path, caller === 'anonymous' ? undefined : callers[caller].token);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});

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

  it.each([
    ['tampered', () => hostileTokens.tampered(doctor())],
    ['alg none', () => hostileTokens.algNone(doctor())],
    ['without exp', () => hostileTokens.withoutExpiry(doctor())],
  ])('answers 401 Unauthorized to a reservation with a %s token', async (_label, make) => {
    const response = await stack.api.post('/room-calendar', reservation(), make());
    expect(response).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('answers 401 TokenExpiredError to a reservation with an expired token', async () => {
    const response = await stack.api.post('/room-calendar', reservation(), hostileTokens.expired(doctor()));
    expect(response).toMatchObject({ status: 401, body: { message: 'TokenExpiredError' } });
  });

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
