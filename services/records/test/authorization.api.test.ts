import type { Role } from '@crm/contracts';
import { mintedCaller } from '@crm/testing';
import { slotAllocator } from '../../../test-support/slots';
import { startStack, type Stack } from '../../../test-support/stack';
import {
  describeAuthorizationMatrix,
  itRefusesHostileTokens,
  type MatrixRow,
} from '../../../test-support/authorization-matrix';
import { metadataOf } from './factories/metadata';
import { bookFor, registerPatient, staffOf, type Staff } from './factories/people';

const UNKNOWN_ID = '0123456789abcdef01234567';

/**
 * Every records endpoint × every kind of caller → the expected status, with bodies that change
 * nothing: 401/403 where the caller may not call it, the endpoint's own answer where it may.
 */
const MATRIX: MatrixRow[] = [
  // statuses: anonymous, PACIENT, DOCTOR, ADMIN, SERVICE_ACCOUNT
  ['post', '/records', [401, 403, 400, 400, 403], {}],
  ['get', '/records', [401, 403, 200, 200, 403]],
  ['get', '/records?page=2&limit=5&search=ana', [401, 403, 200, 200, 403]],
  ['get', `/records/${UNKNOWN_ID}`, [401, 403, 404, 404, 403]],
  ['get', '/records/not-an-id', [401, 403, 400, 400, 403]],
  ['put', `/records/${UNKNOWN_ID}`, [401, 403, 404, 404, 403], { metadata: {} }],
  ['put', `/records/${UNKNOWN_ID}`, [401, 403, 400, 400, 403], {}],
];

let stack: Stack;
let staff: Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Staff>;
let tokens: Record<Role, string>;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'appointments', 'config', 'records'] });
  staff = await staffOf(stack);
  tokens = {
    PACIENT: mintedCaller('PACIENT').token,
    DOCTOR: staff.DOCTOR.token,
    ADMIN: staff.ADMIN.token,
    SERVICE_ACCOUNT: staff.SERVICE_ACCOUNT.token,
  };
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

describeAuthorizationMatrix('authorization matrix', MATRIX, () => ({ stack, tokens }));

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

  itRefusesHostileTokens(doctor, (token) => stack.api.get('/records', token));
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
