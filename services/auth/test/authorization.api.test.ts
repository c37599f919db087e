import type { Role } from '@crm/contracts';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';
import {
  describeAuthorizationMatrix,
  itRefusesHostileTokens,
  type MatrixRow,
} from '../../../test-support/authorization-matrix';

/**
 * Every auth and users endpoint × every kind of caller → the status expected with an empty body
 * (so no call changes anything): 401/403 where the caller may not call it, the endpoint's own
 * validation answer (400) or lookup answer (404) where it may.
 */
const MATRIX: MatrixRow[] = [
  // statuses: anonymous, PACIENT, DOCTOR, ADMIN, SERVICE_ACCOUNT
  ['get', '/auth/currentUser', [401, 200, 200, 200, 200]],
  ['post', '/auth/signIn', [400, 400, 400, 400, 400]],
  ['post', '/auth/signUp', [400, 400, 400, 400, 400]],
  ['post', '/auth/forgotPassword', [400, 400, 400, 400, 400]],
  ['post', `/auth/resetPassword/${'a'.repeat(43)}`, [400, 400, 400, 400, 400]],
  ['get', `/auth/confirmAccount/${'a'.repeat(43)}`, [400, 400, 400, 400, 400]],
  ['post', '/auth/doctor/patient/create', [401, 403, 400, 400, 403]],
  ['get', '/users', [401, 403, 200, 200, 403]],
  ['get', '/users?rol=ADMIN', [401, 403, 403, 200, 403]],
  ['get', '/users?rol=SERVICE_ACCOUNT', [401, 403, 403, 200, 403]],
  ['get', '/users?rol=DOCTOR', [401, 403, 403, 200, 403]],
  ['get', '/users/pacients', [401, 403, 200, 200, 403]],
  ['get', '/users/staff/names', [401, 403, 200, 200, 403]],
  ['get', '/users/fetch?email=nobody%40example.test', [401, 403, 404, 404, 403]],
  ['post', '/users/onboarding/code', [401, 403, 403, 403, 400]],
  ['post', '/users/onboarding/verify', [401, 403, 403, 403, 400]],
  ['get', '/users/0123456789abcdef01234567', [401, 403, 404, 404, 403]],
  ['post', '/users/onboarding', [401, 403, 403, 403, 400]],
  ['post', '/auth/signOut', [401, 200, 200, 200, 200]],
];

let stack: Stack;
const tokens = {} as Record<Role, string>;
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

describeAuthorizationMatrix('authorization matrix', MATRIX, () => ({ stack, tokens }));

describe('tokens the gateway and the service refuse', () => {
  const patient = () => ({ id: patientId, rol: 'PACIENT' as const });

  itRefusesHostileTokens(patient, (token) => stack.api.get('/auth/currentUser', token));
});
