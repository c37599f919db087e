import { hostileTokens } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import { metadataOf } from './factories/metadata';
import {
  bookFor,
  CALLER_KINDS,
  mintedPatientToken,
  registerPatient,
  staffOf,
  type CallerKind,
  type Staff,
} from './factories/people';
import { slotAllocator } from './factories/slots';

const UNKNOWN_ID = '0123456789abcdef01234567';

/**
 * Every records endpoint × every kind of caller → the expected status, with bodies that change
 * nothing: 401/403 where the caller may not call it, the endpoint's own answer where it may.
 */
const MATRIX: Array<
  [method: 'get' | 'post' | 'put', path: string, body: unknown, expected: Record<CallerKind, number>]
> = [
  ['post', '/records', {}, { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 }],
  [
    'get',
    '/records',
    undefined,
    { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 },
  ],
  [
    'get',
    '/records?page=2&limit=5&search=ana',
    undefined,
    { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 },
  ],
  [
    'get',
    `/records/${UNKNOWN_ID}`,
    undefined,
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'get',
    '/records/not-an-id',
    undefined,
    { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 },
  ],
  [
    'put',
    `/records/${UNKNOWN_ID}`,
    { metadata: {} },
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'put',
    `/records/${UNKNOWN_ID}`,
    {},
    { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 },
  ],
];

let stack: Stack;
let staff: Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Staff>;
let tokens: Record<Exclude<CallerKind, 'anonymous'>, string>;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'appointments', 'config', 'records'] });
  staff = await staffOf(stack);
  tokens = {
    PACIENT: mintedPatientToken(),
    DOCTOR: staff.DOCTOR.token,
    ADMIN: staff.ADMIN.token,
    SERVICE_ACCOUNT: staff.SERVICE_ACCOUNT.token,
  };
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const call = (method: 'get' | 'post' | 'put', path: string, body: unknown, token?: string) =>
  method === 'get'
    ? stack.api.get(path, token)
    : method === 'post'
      ? stack.api.post(path, body, token)
      : stack.api.put(path, body, token);

describe('authorization matrix', () => {
  const cases = MATRIX.flatMap(([method, path, body, expected]) =>
    CALLER_KINDS.map(
      (caller) =>
        [
          `${method.toUpperCase()} ${path} ${JSON.stringify(body ?? '')}`,
          caller,
          method,
          path,
          body,
          expected[caller],
        ] as const,
    ),
  );

  it.each(cases)('%s as %s', async (_label, caller, method, path, body, status) => {
    const response = await call(method, path, body, caller === 'anonymous' ? undefined : tokens[caller]);
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toContain('application/json');
  });
});

describe('a patient and the kiosk with a real record in place', () => {
  let recordId: string;
  let patientToken: string;

  beforeAll(async () => {
    const patient = await registerPatient(stack, staff.DOCTOR.token, 'Paciente Curioso');
    patientToken = patient.token;
    const appointment = await bookFor(stack, staff.DOCTOR.token, patient, slotAllocator(12).next());
    const created = await stack.api.post(
      '/records',
      { userId: patient.id, dateId: appointment.id, metadata: metadataOf() },
      staff.DOCTOR.token,
    );
    expect(created.status).toBe(201);
    recordId = created.body.id;
  });

  it.each([
    ['the patient of the record', () => patientToken],
    ['the kiosk', () => tokens.SERVICE_ACCOUNT],
  ])('refuses %s reading, listing or changing it', async (_label, token) => {
    expect((await stack.api.get(`/records/${recordId}`, token())).status).toBe(403);
    expect((await stack.api.get('/records', token())).status).toBe(403);
    expect(
      (await stack.api.put(`/records/${recordId}`, { metadata: { observations: { value: 'x' } } }, token()))
        .status,
    ).toBe(403);
  });
});

describe('tokens the gateway and the service refuse', () => {
  const doctor = () => ({ id: staff.DOCTOR.id, rol: 'DOCTOR' as const });

  it.each([
    ['tampered', () => hostileTokens.tampered(doctor())],
    ['alg none', () => hostileTokens.algNone(doctor())],
    ['without exp', () => hostileTokens.withoutExpiry(doctor())],
  ])('answers 401 Unauthorized to a %s token', async (_label, make) => {
    expect(await stack.api.get('/records', make())).toMatchObject({
      status: 401,
      body: { message: 'Unauthorized' },
    });
  });

  it('answers 401 TokenExpiredError to an expired token', async () => {
    expect(await stack.api.get('/records', hostileTokens.expired(doctor()))).toMatchObject({
      status: 401,
      body: { message: 'TokenExpiredError' },
    });
  });
});

describe('the service on its own, without the gateway in front', () => {
  it('still refuses anonymous callers and patients', async () => {
    const direct = `${stack.components.records!.url}/records`;
    expect((await fetch(direct)).status).toBe(401);
    expect((await fetch(direct, { headers: { authorization: `Bearer ${tokens.PACIENT}` } })).status).toBe(
      403,
    );
    const post = await fetch(direct, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens.PACIENT}` },
      body: JSON.stringify({ userId: UNKNOWN_ID, dateId: UNKNOWN_ID, metadata: metadataOf() }),
    });
    expect(post.status).toBe(403);
  });
});
