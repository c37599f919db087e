import type { Role } from '@crm/contracts';
import { startStack, type Stack } from '../../../test-support/stack';
import {
  describeAuthorizationMatrix,
  itRefusesHostileTokens,
  type MatrixRow,
} from '../../../test-support/authorization-matrix';
import { createPatients, staffTokens } from './support/people';

const UNKNOWN_ID = '0123456789abcdef01234567';
const SOME_DATE = encodeURIComponent('2030-01-07T09:00:00.000Z');

/**
 * Every `/dates` call × every kind of caller → the status expected with an empty body and unknown
 * ids (so no call changes anything): 401/403 where the caller may not call it, the call's own
 * validation (400) or lookup (404) answer where it may.
 */
const MATRIX: MatrixRow[] = [
  // statuses: anonymous, PACIENT, DOCTOR, ADMIN, SERVICE_ACCOUNT
  ['get', '/dates/booked', [200, 200, 200, 200, 200]],
  ['get', '/dates/currentDate', [401, 200, 403, 403, 403]],
  ['get', '/dates', [401, 403, 200, 200, 403]],
  ['post', '/dates', [401, 400, 403, 403, 403]],
  ['post', '/dates/admin', [401, 403, 400, 400, 403]],
  ['post', '/dates/service', [401, 403, 403, 403, 400]],
  ['post', '/dates/service/now', [401, 403, 403, 403, 400]],
  ['post', '/dates/code/verify', [401, 403, 403, 403, 400]],
  ['post', '/dates/checkin', [401, 403, 400, 400, 400]],
  ['post', `/dates/checkin/${UNKNOWN_ID}`, [401, 403, 404, 404, 403]],
  ['post', `/dates/attended/${UNKNOWN_ID}`, [401, 403, 404, 404, 403]],
  ['post', `/dates/noshow/${UNKNOWN_ID}`, [401, 403, 404, 404, 403]],
  ['get', '/dates/agenda', [401, 403, 200, 200, 403]],
  ['delete', `/dates/${SOME_DATE}`, [401, 404, 403, 403, 403]],
  ['delete', `/dates/delete/${UNKNOWN_ID}`, [401, 403, 403, 404, 403]],
  ['delete', `/dates/cancel/${UNKNOWN_ID}`, [401, 403, 404, 404, 403]],
  ['get', `/dates/id/${UNKNOWN_ID}`, [401, 404, 404, 404, 403]],
  ['get', `/dates/userid/${UNKNOWN_ID}`, [401, 404, 404, 404, 403]],
  ['get', `/dates/history/userid/${UNKNOWN_ID}`, [401, 404, 404, 404, 403]],
];

let stack: Stack;
const tokens = {} as Record<Role, string>;
let patientId: string;

beforeAll(async () => {
  stack = await startStack({ components: ['auth', 'notifications', 'appointments'] });
  Object.assign(tokens, await staffTokens(stack));
  const [patient] = await createPatients(stack, tokens.DOCTOR, 1, 'matrix');
  tokens.PACIENT = patient!.token;
  patientId = patient!.id;
});
afterAll(async () => {
  await stack?.stop();
});

describeAuthorizationMatrix('authorization matrix of /dates', MATRIX, () => ({ stack, tokens }));

describe('tokens the gateway and the service refuse', () => {
  const patient = () => ({ id: patientId, rol: 'PACIENT' as const });

  itRefusesHostileTokens(patient, (token) =>
    stack.api.post('/dates', { date: '2030-01-07T09:00:00Z' }, token),
  );

  it('refuses a signed-out session', async () => {
    const [patient] = await createPatients(stack, tokens.DOCTOR, 1, 'signedout');
    expect((await stack.api.post('/auth/signOut', {}, patient!.token)).status).toBe(200);
    expect((await stack.api.get('/dates/currentDate', patient!.token)).status).toBe(401);
  });
});
