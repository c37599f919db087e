/**
 * Hostile input on every route of the route table that takes a body or a query,
 * through the real gateway, as a caller the route allows (so the input itself is what is judged).
 * Operator injection, wrong types, prototype keys, oversized / malformed / mistyped bodies and
 * silly paging never get a 2xx they should not, never a 5xx, and every refusal is a JSON message.
 * Mass assignment (`rol`, `confirmed`, foreign ids) is checked by its effect on the stored data.
 */
import { API_ROUTES, CENTRE_PROFILE_SEED, type ApiRoute, type Role } from '@crm/contracts';
import { mintToken, newSigningKey, uniqueEmail, uniqueId } from '@crm/testing';
import { slotAllocator } from '../test-support/slots';
import { uniquePhone } from '../test-support/patients';
import {
  freshRoomSlot,
  freshToken,
  recordMetadata,
  signInStaff,
  signUpPatient,
  type Actor,
} from './support/actors';
import { call, chunkedBody, isJsonError, type RawResponse } from './support/http';
import { Summary } from './support/summary';
import { startSystemStack, type SystemStack } from './support/system-stack';

jest.setTimeout(60_000);

let stack: SystemStack;
const staff = {} as Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Actor>;
let patient: Actor;
let appointmentId: string;
const slots = slotAllocator(9);
const summary = new Summary('hostile input');
summary.set('5xx answers', 0);
summary.set('2xx that should have been refused', 0);

beforeAll(async () => {
  stack = await startSystemStack({ notifications: false });
  staff.DOCTOR = await signInStaff(stack, 'doctor');
  staff.ADMIN = await signInStaff(stack, 'admin');
  staff.SERVICE_ACCOUNT = await signInStaff(stack, 'kiosk');
  patient = await signUpPatient(stack, 'hostile');
  const booked = await stack.api.post('/dates', { date: slots.next() }, patient.token);
  appointmentId = booked.body.id;
  const record = await stack.api.post(
    '/records',
    { userId: patient.id, dateId: appointmentId, metadata: recordMetadata() },
    staff.DOCTOR.token,
  );
  expect(record.status).toBe(201);
}, 120_000);

afterAll(async () => {
  summary.print();
  await stack?.stop();
});

/** A token of the first role the route allows (anonymous for public routes). */
function callerOf(route: ApiRoute): string | undefined {
  if (route.access === 'public') return undefined;
  const role: Role = route.access[0];
  return role === 'PACIENT' ? freshToken(patient) : freshToken(staff[role]);
}

function pathOf(route: ApiRoute): string {
  return route.path
    .replace(':token', 'x'.repeat(32))
    .replace(':day', '2030-01-07')
    .replace(':id', route.path.startsWith('/records') ? appointmentId : uniqueId())
    .replace(':appointmentId', appointmentId)
    .replace(':paymentId', '00000000-0000-4000-8000-000000000000')
    .replace(':number', 'F2030-000001')
    // A queue of no deployable: every case answers 404 or is refused before that.
    .replace(':queue', 'crm.nadie.cola')
    .replace(':messageId', uniqueId());
}

/** A body the route would accept; hostile variants change its first field or add to it. */
function validBody(route: ApiRoute): Record<string, unknown> {
  const person = () => ({
    name: 'Ana Gómez',
    phone: uniquePhone(),
    email: uniqueEmail('hostile'),
    password: 'Clave1234!',
  });
  switch (`${route.method} ${route.path}`) {
    case 'POST /auth/signIn':
      return { email: patient.email, password: patient.password };
    case 'POST /auth/signUp':
    case 'POST /auth/doctor/patient/create': {
      const { name, ...rest } = person();
      return { name, ...rest };
    }
    case 'POST /auth/forgotPassword':
      return { name: 'Lucía Pérez', email: patient.email };
    case 'POST /auth/resendConfirmation':
      return { email: patient.email };
    case 'POST /auth/resetPassword/:token':
      return { password: 'NuevaClave1234!' };
    case 'POST /auth/signIn/mfa':
    case 'POST /auth/signIn/mfa/confirm':
      return { mfaToken: 'x'.repeat(43), code: '123456' };
    case 'POST /auth/signIn/mfa/setup':
      return { mfaToken: 'x'.repeat(43) };
    case 'POST /auth/mfa/confirm':
      return { code: '123456' };
    case 'DELETE /users/me':
      // A wrong password: the suite's patient must survive every case.
      return { password: 'no-es-la-contraseña' };
    case 'POST /users/staff':
      return { name: 'Ana Gómez', email: uniqueEmail('staff'), rol: 'DOCTOR' };
    case 'POST /users/onboarding':
      return { email: uniqueEmail('kiosk'), name: 'Pedro Ruiz', phone: uniquePhone(), operation: 'create' };
    case 'POST /users/onboarding/code':
      return { email: uniqueEmail('kiosk-code') };
    case 'POST /users/onboarding/verify':
      // A code that is not the patient's: the suite's patient is never proven.
      return { email: patient.email, code: '000000' };
    case 'POST /dates/code/verify':
      return { pacientId: patient.id, code: 'KXR4T7' };
    case 'POST /dates':
      return { date: slots.next() };
    case 'POST /dates/admin':
      return { date: slots.next(), pacientId: patient.id };
    case 'POST /dates/reschedule':
    case 'POST /dates/reschedule/:id':
      return { date: slots.next() };
    case 'POST /dates/service':
      return { pacientId: patient.id };
    case 'POST /dates/waitlist':
      return { day: '2030-01-07' };
    case 'POST /dates/checkin':
      return { pacientId: patient.id };
    case 'POST /dates/service/now':
      return { pacientId: patient.id };
    case 'POST /records':
      return { userId: patient.id, dateId: appointmentId, metadata: recordMetadata() };
    case 'PUT /records/:id':
      return { metadata: { observations: { name: 'observations', value: 'Revisado' } } };
    case 'POST /room-calendar':
      return { room: 'consulta-1', dates: [freshRoomSlot()] };
    case 'PUT /config/view':
      return { fields: [{ name: 'notes', label: 'Notas', fieldType: 'TEXT' }] };
    case 'PUT /config/centre':
      return { ...CENTRE_PROFILE_SEED };
    case 'PUT /config/centre/closures':
      return { localHolidays: [{ date: '2030-01-08', name: 'Fiesta local' }] };
    case 'POST /payments/checkout':
      return { appointmentId };
    case 'POST /payments/notify':
      // Well formed but not signed by the gateway: refused on its signature.
      return { Ds_SignatureVersion: 'HMAC_SHA256_V1', Ds_MerchantParameters: 'e30=', Ds_Signature: 'x' };
    case 'POST /payments/desk':
      return { appointmentId, method: 'cash', amountCents: 1900 };
    case 'POST /payments/:paymentId/refund':
      return { reason: 'Cobro duplicado' };
    case 'POST /system/dead-letters/:queue/:messageId/redeliver':
      return { reason: 'Fallo corregido' };
    case 'POST /system/dead-letters/:queue/:messageId/discard':
      return { reason: 'Evento de prueba' };
    default:
      throw new Error(`no valid body for ${route.method} ${route.path}: add one`);
  }
}

const withQuery = (route: ApiRoute, query: string) => `${pathOf(route)}${query ? `?${query}` : ''}`;
/** The query a route needs to answer at all (others have defaults for everything). */
const baseQuery = (route: ApiRoute): Record<string, string> =>
  route.path === '/users/fetch'
    ? { email: patient.email }
    : route.path === '/config/view'
      ? { view: route.method === 'PUT' ? 'system/hostile' : 'doctor/appointments/:id' }
      : route.path === '/dates/slots'
        ? { day: '2030-01-07' }
        : {};
const encode = (query: Record<string, string>) => new URLSearchParams(query).toString();

function judge(response: RawResponse, acceptable: (status: number) => boolean) {
  summary.add(`answered ${response.status}`);
  if (response.status >= 500) summary.add('5xx answers');
  else if (response.status < 300 && !acceptable(response.status))
    summary.add('2xx that should have been refused');
  expect(response.status).toBeLessThan(500);
  expect(acceptable(response.status)).toBe(true);
  if (response.status >= 400) expect(isJsonError(response)).toBe(true);
}
const refused = (status: number) => status >= 400 && status < 500;
/** An answer without the instant it was made (the data export says when it was taken). */
const withoutClock = (body: unknown) =>
  body && typeof body === 'object' && 'exportedAt' in body ? { ...body, exportedAt: undefined } : body;

const bodyRoutes = API_ROUTES.filter((route) => route.body);
const queryRoutes = API_ROUTES.filter((route) => route.query?.length);

type BodyCase = [
  string,
  (valid: Record<string, unknown>) => {
    rawBody?: string | ReadableStream<Uint8Array>;
    body?: unknown;
    headers?: Record<string, string>;
  },
];
const firstKey = (valid: Record<string, unknown>) => Object.keys(valid)[0];
const replaceFirst = (value: unknown) => (valid: Record<string, unknown>) => ({
  body: { ...valid, [firstKey(valid)]: value },
});

const BODY_CASES: BodyCase[] = [
  ['$ne operator in a field', replaceFirst({ $ne: null })],
  ['$gt operator in a field', replaceFirst({ $gt: '' })],
  ['$regex operator in a field', replaceFirst({ $regex: '.*' })],
  ['$where at the top level', (valid) => ({ body: { ...valid, $where: 'sleep(5000) || true' } })],
  ['dotted key', (valid) => ({ body: { ...valid, 'profile.rol': 'ADMIN' } })],
  [
    '__proto__ key',
    (valid) => ({
      rawBody: JSON.stringify(valid).replace(/^\{/, '{"__proto__":{"rol":"ADMIN"},'),
      headers: { 'content-type': 'application/json' },
    }),
  ],
  ['number instead of text', replaceFirst(12345)],
  ['boolean instead of text', replaceFirst(true)],
  ['null', replaceFirst(null)],
  ['array instead of text', replaceFirst(['x', 'y'])],
  ['5 000-character text', replaceFirst('A'.repeat(5000))],
  ['array body', (valid) => ({ body: [valid] })],
  ['JSON string body', () => ({ rawBody: '"hola"', headers: { 'content-type': 'application/json' } })],
  [
    'malformed JSON',
    () => ({ rawBody: '{"email": "a@b.c", ', headers: { 'content-type': 'application/json' } }),
  ],
  [
    'JSON nested 5 000 levels deep',
    () => ({
      rawBody: `{"a":${'['.repeat(5000)}${']'.repeat(5000)}}`,
      headers: { 'content-type': 'application/json' },
    }),
  ],
  [
    'text/plain content type',
    (valid) => ({ rawBody: JSON.stringify(valid), headers: { 'content-type': 'text/plain' } }),
  ],
  [
    'form-encoded content type',
    (valid) => ({
      rawBody: new URLSearchParams(valid as Record<string, string>).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    }),
  ],
  [
    '150 kB body with Content-Length',
    (valid) => ({
      rawBody: JSON.stringify({ ...valid, padding: 'x'.repeat(150 * 1024) }),
      headers: { 'content-type': 'application/json' },
    }),
  ],
  [
    '150 kB chunked body (no Content-Length)',
    (valid) => ({
      rawBody: chunkedBody(JSON.stringify({ ...valid, padding: 'x'.repeat(150 * 1024) })),
      headers: { 'content-type': 'application/json' },
    }),
  ],
];

describe('hostile bodies on every route that takes one', () => {
  const cases = bodyRoutes.flatMap((route) =>
    BODY_CASES.map(([name, make]) => [`${route.method} ${route.path}`, name, route, make] as const),
  );
  it.each(cases)('%s with %s → 4xx with a JSON message', async (_route, _name, route, make) => {
    const done = summary.case();
    const query = encode(baseQuery(route));
    const response = await call(stack.gatewayUrl, route.method, withQuery(route, query), {
      token: callerOf(route),
      ...make(validBody(route)),
    });
    judge(response, refused);
    done.pass();
  });
});

describe('hostile query strings on every route that reads one', () => {
  const cases = queryRoutes.flatMap((route) =>
    (route.query ?? []).flatMap((param) =>
      [
        [`${param}[$ne]=x`, `${encodeURIComponent(`${param}[$ne]`)}=x`, 'inert'],
        [`${param}[$regex]=.*`, `${encodeURIComponent(`${param}[$regex]`)}=.*`, 'inert'],
        [`${param}.$gt=`, `${encodeURIComponent(`${param}.$gt`)}=`, 'refused'],
        [`$where with ${param}`, `%24where=1&${param}=1`, 'refused'],
        [`${param} given twice`, `${param}=a&${param}=b`, 'refused'],
        [`${param} malformed percent-encoding`, `${param}=%E0%A4%A`, 'any'],
      ].map(
        ([name, query, expectation]) =>
          [`${route.method} ${route.path}`, name, route, query, expectation] as const,
      ),
    ),
  );

  it.each(cases)('%s with %s', async (_route, _name, route, hostile, expectation) => {
    const done = summary.case();
    const token = callerOf(route);
    const base = encode(baseQuery(route));
    const body = route.body ? validBody(route) : undefined;
    const query = [base, hostile].filter(Boolean).join('&');
    const response = await call(stack.gatewayUrl, route.method, withQuery(route, query), { token, body });
    if (expectation === 'refused') {
      judge(response, refused);
    } else if (expectation === 'inert' && route.method === 'GET') {
      // An unknown key is ignored: it may answer, but exactly as if it had not been sent.
      judge(response, (status) => refused(status) || status === 200);
      if (response.status === 200) {
        const baseline = await call(stack.gatewayUrl, 'GET', withQuery(route, base), { token });
        expect(withoutClock(response.body)).toEqual(withoutClock(baseline.body));
      }
    } else {
      // Taken as (odd) text: any answer but a 5xx.
      judge(response, (status) => status < 500);
    }
    done.pass();
  });
});

describe('hostile path parameters on every route that has one', () => {
  const HOSTILE_PARAMS = [
    ['operator text', '$ne'],
    ['JSON operator', encodeURIComponent('{"$gt":""}')],
    ['regex', encodeURIComponent('.*')],
    ['5 000 characters', 'a'.repeat(5000)],
    ['__proto__', '__proto__'],
    ['null', 'null'],
    ['unicode', encodeURIComponent('ñandú💥')],
    ['encoded slash', 'a%2Fb'],
    ['malformed percent-encoding', '%E0%A4%A'],
    ['NUL byte', 'a%00b'],
  ] as const;
  const cases = API_ROUTES.filter((route) => route.path.includes('/:')).flatMap((route) =>
    HOSTILE_PARAMS.map(([name, value]) => [`${route.method} ${route.path}`, name, route, value] as const),
  );
  it.each(cases)('%s with %s → 4xx with a JSON message', async (_route, _name, route, value) => {
    const done = summary.case();
    const path = route.path.replace(/:[A-Za-z]+/, value);
    const response = await call(stack.gatewayUrl, route.method, path, {
      token: callerOf(route),
      body: route.body ? validBody(route) : undefined,
    });
    judge(response, refused);
    done.pass();
  });
});

describe('paging limits', () => {
  const paged = queryRoutes.filter((route) => route.query?.includes('limit'));
  it.each(paged.map((route) => [route.path, route] as const))(
    '%s caps a huge limit and refuses nonsense',
    async (_path, route) => {
      const done = summary.case();
      const token = callerOf(route);
      const huge = await call(stack.gatewayUrl, 'GET', withQuery(route, 'limit=1000000000'), { token });
      judge(huge, (status) => status === 200);
      expect(huge.body.limit).toBeLessThanOrEqual(100);
      for (const query of [
        'limit=-5',
        'limit=0',
        'limit=abc',
        'limit=1e400',
        'page=0',
        'page=-1',
        'page=1e400',
        'page=abc',
        'search=' + 'x'.repeat(500),
      ]) {
        const response = await call(stack.gatewayUrl, 'GET', withQuery(route, query), { token });
        judge(response, refused);
      }
      const regexText = await call(
        stack.gatewayUrl,
        'GET',
        withQuery(route, `search=${encodeURIComponent('.*')}`),
        { token },
      );
      judge(regexText, (status) => status === 200);
      expect(regexText.body.total).toBe(0); // taken literally: nobody is called ".*"
      done.pass();
    },
  );
});

describe('mass assignment is ignored or refused, as the stored data proves', () => {
  it('a sign-up cannot choose its role, confirmation or id', async () => {
    const done = summary.case();
    const email = uniqueEmail('mass');
    const forcedId = uniqueId();
    const response = await call(stack.gatewayUrl, 'POST', '/auth/signUp', {
      body: {
        name: 'Intruso',
        phone: uniquePhone(),
        email,
        password: 'Clave1234!',
        rol: 'ADMIN',
        confirmed: true,
        _id: forcedId,
        id: forcedId,
      },
    });
    expect(response.status).toBeLessThan(500);
    if (response.status === 201) {
      expect(response.body.id).not.toBe(forcedId);
      expect(response.body.rol).toBe('PACIENT');
      const me = await call(stack.gatewayUrl, 'GET', '/auth/currentUser', {
        token: response.body.sessiontoken,
      });
      expect(me.body.rol).toBe('PACIENT');
      // Still unconfirmed: signing in works (no lock-outs) but says so.
      const signIn = await call(stack.gatewayUrl, 'POST', '/auth/signIn', {
        body: { email, password: 'Clave1234!' },
      });
      expect(signIn.status).toBe(200);
      expect(signIn.body).toMatchObject({ rol: 'PACIENT', confirmed: false });
      expect(me.body.profile.confirmed).toBe(false);
      expect(
        (await call(stack.gatewayUrl, 'GET', '/dates', { token: response.body.sessiontoken })).status,
      ).toBe(403);
    }
    done.pass();
  });

  it('staff and the kiosk create patients, never staff, whatever the body says', async () => {
    const done = summary.case();
    const byStaff = await call(stack.gatewayUrl, 'POST', '/auth/doctor/patient/create', {
      token: staff.DOCTOR.token,
      body: {
        name: 'Falso Admin',
        phone: uniquePhone(),
        email: uniqueEmail('mass'),
        password: 'Clave1234!',
        rol: 'ADMIN',
      },
    });
    const byKiosk = await call(stack.gatewayUrl, 'POST', '/users/onboarding', {
      token: staff.SERVICE_ACCOUNT.token,
      body: {
        email: uniqueEmail('mass'),
        name: 'Falso Doctor',
        phone: uniquePhone(),
        operation: 'create',
        rol: 'DOCTOR',
        confirmed: true,
      },
    });
    for (const response of [byStaff, byKiosk]) {
      expect(response.status).toBe(201);
      const id = response.body.id ?? response.body.data?.id;
      const stored = await call(stack.gatewayUrl, 'GET', `/users/${id}`, { token: staff.ADMIN.token });
      expect(stored.body.data.rol).toBe('PACIENT');
    }
    done.pass();
  });

  it('a staff booking cannot set its status, channel or patient snapshot', async () => {
    const done = summary.case();
    const other = await signUpPatient(stack, 'mass-booking');
    const response = await call(stack.gatewayUrl, 'POST', '/dates/admin', {
      token: staff.ADMIN.token,
      body: {
        date: slots.next(),
        pacientId: other.id,
        status: 'cancelled',
        channel: 'kiosk',
        user: { name: 'Otro', email: 'x@y.z' },
        _id: uniqueId(),
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: 'booked', channel: 'staff', pacientId: other.id });
    expect(response.body.user.email).toBe(other.email);
    done.pass();
  });

  it('a record keeps its doctor, patient and appointment whatever the body says', async () => {
    const done = summary.case();
    const update = await call(stack.gatewayUrl, 'PUT', `/records/${appointmentId}`, {
      token: staff.ADMIN.token,
      body: {
        metadata: { observations: { name: 'observations', value: 'Editado' } },
        userId: uniqueId(),
        dateId: uniqueId(),
        doctor: { id: uniqueId(), name: 'Falso' },
      },
    });
    expect(update.status).toBe(200);
    const stored = await call(stack.gatewayUrl, 'GET', `/records/${appointmentId}`, {
      token: staff.DOCTOR.token,
    });
    expect(stored.body).toMatchObject({ userId: patient.id, dateId: appointmentId });
    expect(stored.body.doctor.id).toBe(staff.DOCTOR.id);
    expect(stored.body.metadata.observations.value).toBe('Editado');
    done.pass();
  });

  it('a doctor cannot reserve a room in another doctor’s name', async () => {
    const done = summary.case();
    const response = await call(stack.gatewayUrl, 'POST', '/room-calendar', {
      token: staff.DOCTOR.token,
      body: { room: 'consulta-2', dates: [freshRoomSlot()], doctor: uniqueId() },
    });
    expect(response.status).toBe(403);
    expect(isJsonError(response)).toBe(true);
    done.pass();
  });

  it('a token cannot raise its own role: a tampered or unsigned one is refused', async () => {
    const done = summary.case();
    const forged = mintToken({ id: patient.id, rol: 'ADMIN' }, 3600, newSigningKey());
    expect((await call(stack.gatewayUrl, 'GET', '/users', { token: forged })).status).toBe(401);
    done.pass();
  });
});
