import type { Role } from '@crm/contracts';
import { hostileTokens } from '@crm/testing';
import { startStack, type Stack } from '../../../test-support/stack';
import { createPatients, staffTokens } from './support/people';

type Caller = 'anonymous' | Role;
const CALLERS: Caller[] = ['anonymous', 'PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'];
const UNKNOWN_ID = '0123456789abcdef01234567';
const SOME_DATE = encodeURIComponent('2030-01-07T09:00:00.000Z');

/**
 * Every `/dates` call × every kind of caller → the status expected with an empty body and unknown
 * ids (so no call changes anything): 401/403 where the caller may not call it, the call's own
 * validation (400) or lookup (404) answer where it may.
 */
const MATRIX: Array<[method: 'get' | 'post' | 'delete', path: string, expected: Record<Caller, number>]> = [
  ['get', '/dates/booked', { anonymous: 200, PACIENT: 200, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 200 }],
  [
    'get',
    '/dates/currentDate',
    { anonymous: 401, PACIENT: 200, DOCTOR: 403, ADMIN: 403, SERVICE_ACCOUNT: 403 },
  ],
  ['get', '/dates', { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 }],
  ['post', '/dates', { anonymous: 401, PACIENT: 400, DOCTOR: 403, ADMIN: 403, SERVICE_ACCOUNT: 403 }],
  ['post', '/dates/admin', { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 403 }],
  ['post', '/dates/service', { anonymous: 401, PACIENT: 403, DOCTOR: 403, ADMIN: 403, SERVICE_ACCOUNT: 400 }],
  [
    'post',
    '/dates/service/now',
    { anonymous: 401, PACIENT: 403, DOCTOR: 403, ADMIN: 403, SERVICE_ACCOUNT: 400 },
  ],
  ['post', '/dates/checkin', { anonymous: 401, PACIENT: 403, DOCTOR: 400, ADMIN: 400, SERVICE_ACCOUNT: 400 }],
  [
    'post',
    `/dates/checkin/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'post',
    `/dates/attended/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'post',
    `/dates/noshow/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  ['get', '/dates/agenda', { anonymous: 401, PACIENT: 403, DOCTOR: 200, ADMIN: 200, SERVICE_ACCOUNT: 403 }],
  [
    'delete',
    `/dates/${SOME_DATE}`,
    { anonymous: 401, PACIENT: 404, DOCTOR: 403, ADMIN: 403, SERVICE_ACCOUNT: 403 },
  ],
  [
    'delete',
    `/dates/delete/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 403, DOCTOR: 403, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'delete',
    `/dates/cancel/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 403, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'get',
    `/dates/id/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 404, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'get',
    `/dates/userid/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 404, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
  [
    'get',
    `/dates/history/userid/${UNKNOWN_ID}`,
    { anonymous: 401, PACIENT: 404, DOCTOR: 404, ADMIN: 404, SERVICE_ACCOUNT: 403 },
  ],
];

let stack: Stack;
const tokens = {} as Record<Exclude<Caller, 'anonymous'>, string>;
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

describe('authorization matrix of /dates', () => {
  const cases = MATRIX.flatMap(([method, path, expected]) =>
    CALLERS.map(
      (caller) => [`${method.toUpperCase()} ${path}`, caller, method, path, expected[caller]] as const,
    ),
  );

  it.each(cases)('%s as %s', async (_label, caller, method, path, status) => {
    const token = caller === 'anonymous' ? undefined : tokens[caller];
    const response =
      method === 'get'
        ? await stack.api.get(path, token)
        : method === 'post'
          ? await stack.api.post(path, {}, token)
          : await stack.api.delete(path, token);
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
    const response = await stack.api.post('/dates', { date: '2030-01-07T09:00:00Z' }, make());
    expect(response).toMatchObject({ status: 401, body: { message: 'Unauthorized' } });
  });

  it('answers 401 TokenExpiredError to an expired token', async () => {
    const response = await stack.api.get('/dates/currentDate', hostileTokens.expired(patient()));
    expect(response).toMatchObject({ status: 401, body: { message: 'TokenExpiredError' } });
  });

  it('refuses a signed-out session', async () => {
    const [patient] = await createPatients(stack, tokens.DOCTOR, 1, 'signedout');
    expect((await stack.api.post('/auth/signOut', {}, patient!.token)).status).toBe(200);
    expect((await stack.api.get('/dates/currentDate', patient!.token)).status).toBe(401);
  });
});
