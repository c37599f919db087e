import type { Role } from '@crm/contracts';
import { hostileTokens } from '@crm/testing';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';

type Caller = 'anonymous' | Role;
const CALLERS: Caller[] = ['anonymous', 'PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'];

/**
 * Every auth and users endpoint × every kind of caller → the status expected with an empty body
 * (so no call changes anything): 401/403 where the caller may not call it, the endpoint's own
 * validation answer (400) or lookup answer (404) where it may.
 */
const MATRIX: Array<[method: 'get' | 'post', path: string, expected: Record<Caller, number>]> = [
  [
    'get',
    '/auth/currentUser',
    { anonymous: 401, PACIENT: 200, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 200 },
  ],
  ['post', '/auth/signIn', { anonymous: 400, PACIENT: 400, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 400 }],
  ['post', '/auth/signUp', { anonymous: 400, PACIENT: 400, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 400 }],
  [
    'post',
    '/auth/forgotPassword',
    { anonymous: 400, PACIENT: 400, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 400 },
  ],
  [
    'post',
    `/auth/resetPassword/${'a'.repeat(43)}`,
    { anonymous: 400, PACIENT: 400, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 400 },
  ],
  [
    'get',
    `/auth/confirmAccount/${'a'.repeat(43)}`,
    { anonymous: 400, PACIENT: 400, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 400 },
  ],
  [
    'post',
    '/auth/doctor/patient/create',
    { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 },
  ],
  ['get', '/users', { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 }],
  ['get', '/users/pacients', { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 }],
  [
    'get',
    '/users/fetch?email=nobody%40example.test',
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 404 },
  ],
  [
    'get',
    '/users/0123456789abcdef01234567',
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 404 },
  ],
  [
    'post',
    '/users/onboarding',
    { anonymous: 401, PACIENT: 403, DOCTOR: 403, ADMIN: 403, SERVICE_ACCOUNT: 400 },
  ],
  ['post', '/auth/signOut', { anonymous: 401, PACIENT: 200, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 200 }],
];

let stack: Stack;
const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;
let patientId: string;

beforeAll(async () => {
  stack = await startStack();
  const signUp = await stack.api.post('/auth/signUp', {
    name: 'Paciente Matriz',
    phone: '612000111',
    email: uniqueEmail('matrix'),
    password: 'contraseña-matriz',
  });
  tokens.PACIENT = signUp.body.sessiontoken;
  patientId = signUp.body.id;
  tokens.DOCTOR = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  tokens.ADMIN = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  tokens.SERVICE_ACCOUNT = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
});
afterAll(async () => {
  await stack?.stop();
});

describe('authorization matrix', () => {
  const cases = MATRIX.flatMap(([method, path, expected]) =>
    CALLERS.map(
      (caller) =>
        [`${method.toUpperCase()} ${path.split('?')[0]}`, caller, method, path, expected[caller]] as const,
    ),
  );

  it.each(cases)('%s as %s', async (_label, caller, method, path, status) => {
    const token = caller === 'anonymous' ? undefined : tokens[caller];
    const response =
      method === 'get' ? await stack.api.get(path, token) : await stack.api.post(path, {}, token);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});

describe('tokens the gateway and the service refuse', () => {
  const patient = () => ({ id: patientId, rol: 'PACIENT' as const });

  it.each([
    ['tampered', () => hostileTokens.tampered(patient())],
    ['alg none', () => hostileTokens.algNone(patient())],
    ['without exp', () => hostileTokens.withoutExpiry(patient())],
  ])('answers 401 Unauthorized to a %s token', async (_label, make) => {
    const response = await stack.api.get('/auth/currentUser', make());
    expect(response).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('answers 401 TokenExpiredError to an expired token', async () => {
    const response = await stack.api.get('/auth/currentUser', hostileTokens.expired(patient()));
    expect(response).toMatchObject({ status: 401, body: { message: 'TokenExpiredError' } });
  });
});
