/**
 * Authorization: the route/policy table (`@crm/contracts` API_ROUTES) against the real product.
 *  - Every declared route is served: no call of the matrix meets a service's "Ruta no encontrada".
 *    (Services serve nothing else: they mount their routes from the table with server-kit's
 *    `tableRouter`, which refuses handlers for undeclared routes at start-up.)
 *  - The gateway routes each declared path to the declared service and lets exactly the public ones
 *    through without a token.
 *  - The authorization matrix: every route × anonymous / PACIENT / DOCTOR / ADMIN / SERVICE_ACCOUNT
 *    through the real gateway → 401 / 403 / allowed, never a 5xx.
 *  - Object level: a patient can never read or change another patient's appointment, user or record.
 */
import { API_ROUTES, routeAllows, type ApiRoute } from '@crm/contracts';
import { listenForMessages, mintToken, sleep, uniqueEmail, uniqueId } from '@crm/testing';
import { slotAllocator } from '../test-support/slots';
import { uniquePhone } from '../test-support/patients';
import { publicRouteMatcher } from '../gateway/src/auth';
import { firstSegment, PROXY_TABLE } from '../gateway/src/proxy-table';
import {
  CALLER_KINDS,
  freshRoomSlot,
  freshToken,
  recordMetadata,
  signInStaff,
  signUpPatient,
  type Actor,
  type CallerKind,
} from './support/actors';
import { call, isJsonError } from './support/http';
import { kioskCodeFromEvent } from './support/kiosk';
import { Summary } from './support/summary';
import { startSystemStack, type SystemStack } from './support/system-stack';

jest.setTimeout(60_000);

const key = (method: string, path: string) => `${method} ${path}`;

/** A concrete path for a pattern: params become well-formed values that name nothing. */
function samplePath(route: ApiRoute): string {
  const path = route.path
    .replace(':token', 'x'.repeat(32))
    .replace(':day', '2030-01-07')
    .replace(':date', encodeURIComponent('2030-01-07T10:00:00.000Z'))
    .replace(/:[A-Za-z]+/g, () => uniqueId());
  return route.path === '/config/view' ? `${path}?view=doctor/appointments/:id` : path;
}

let stack: SystemStack;
const actors = {} as Record<Exclude<CallerKind, 'anonymous'>, Actor>;
const summary = new Summary('authorization (route table, matrix, object level)');
summary.set('5xx answers', 0);

beforeAll(async () => {
  stack = await startSystemStack({ notifications: false });
  actors.PACIENT = await signUpPatient(stack, 'matrix');
  actors.DOCTOR = await signInStaff(stack, 'doctor');
  actors.ADMIN = await signInStaff(stack, 'admin');
  actors.SERVICE_ACCOUNT = await signInStaff(stack, 'kiosk');
}, 120_000);

afterAll(async () => {
  summary.print();
  await stack?.stop();
});

describe('the route/policy table matches the running product', () => {
  it('routes every declared path to its service through the gateway proxy table, and no prefix is unused', () => {
    const table = new Map(PROXY_TABLE.map((entry) => [entry.prefix, entry.upstream]));
    for (const route of API_ROUTES)
      expect([route.path, table.get(firstSegment(route.path))]).toEqual([route.path, route.service]);
    for (const { prefix } of PROXY_TABLE)
      expect(API_ROUTES.some((route) => firstSegment(route.path) === prefix)).toBe(true);
  });

  it('lets exactly the declared public routes through the gateway without a token', () => {
    const isPublic = publicRouteMatcher();
    for (const route of API_ROUTES) {
      expect([
        key(route.method, route.path),
        isPublic(route.method, samplePath(route).split('?')[0]),
      ]).toEqual([key(route.method, route.path), route.access === 'public']);
    }
  });
});

const cells = API_ROUTES.flatMap((route) => CALLER_KINDS.map((caller) => ({ route, caller })));

describe('authorization matrix through the gateway', () => {
  it.each(cells.map((cell) => [`${cell.route.method} ${cell.route.path}`, cell.caller, cell] as const))(
    '%s as %s',
    async (_name, _caller, { route, caller }) => {
      const done = summary.case();
      // Each call gets its own session, so sign-out cells end only their own.
      const token = caller === 'anonymous' ? undefined : freshToken(actors[caller]);
      const response = await call(stack.gatewayUrl, route.method, samplePath(route), {
        token,
        body: route.body ? {} : undefined,
      });
      if (response.status >= 500) summary.add('5xx answers');
      expect(response.status).toBeLessThan(500);
      expect((response.body as { message?: unknown } | undefined)?.message).not.toBe('Ruta no encontrada');
      if (route.access !== 'public' && caller === 'anonymous') {
        expect(response.status).toBe(401);
      } else if (!routeAllows(route, caller === 'anonymous' ? undefined : caller)) {
        expect(response.status).toBe(403);
      } else {
        expect([401, 403]).not.toContain(response.status);
      }
      if (response.status >= 400) expect(isJsonError(response)).toBe(true);
      done.pass();
    },
  );

  it.each([...new Set(API_ROUTES.map((route) => route.path))])(
    'answers a method no route declares on %s with a JSON 4xx, never 2xx or 5xx',
    async (path) => {
      const done = summary.case();
      const declared = API_ROUTES.filter((route) => route.path === path).map((route) => route.method);
      const unused = (['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const).filter(
        (m) => !declared.includes(m as never),
      );
      for (const method of unused) {
        const response = await call(
          stack.gatewayUrl,
          method,
          samplePath({ ...API_ROUTES.find((r) => r.path === path)!, path }),
          {
            token: freshToken(actors.ADMIN),
            body: method === 'GET' || method === 'DELETE' ? undefined : {},
          },
        );
        // Another route may own the same concrete path for that method (e.g. DELETE /dates/:date).
        expect([method, path, response.status >= 400 && response.status < 500]).toEqual([method, path, true]);
        expect(isJsonError(response)).toBe(true);
      }
      done.pass();
    },
  );

  it('keeps the gateway’s form cache (GET /config/view) for staff: a warm entry is not served to others', async () => {
    const path = '/config/view?view=doctor/appointments/:id';
    for (let i = 0; i < 2; i++)
      expect((await call(stack.gatewayUrl, 'GET', path, { token: actors.DOCTOR.token })).status).toBe(200);
    for (const caller of ['PACIENT', 'SERVICE_ACCOUNT'] as const) {
      const response = await call(stack.gatewayUrl, 'GET', path, { token: freshToken(actors[caller]) });
      expect([caller, response.status]).toEqual([caller, 403]);
    }
    expect((await call(stack.gatewayUrl, 'GET', path)).status).toBe(401);
  });

  it('refuses tokens of a role the product does not know, and tokens of deleted or made-up users where it matters', async () => {
    const bogusRole = mintToken({ id: uniqueId(), rol: 'SUPERUSER' as never });
    expect((await call(stack.gatewayUrl, 'GET', '/dates', { token: bogusRole })).status).toBe(401);
  });
});

describe('object-level access: one patient never reaches another patient’s data', () => {
  let owner: Actor;
  let other: Actor;
  /** The appointment with the owner's clinical record (saving it marks the appointment attended). */
  let appointmentId: string;
  /** The owner's active appointment, booked after the first one was attended. */
  let activeId: string;
  let activeDate: string;
  const slots = slotAllocator(5);

  beforeAll(async () => {
    owner = await signUpPatient(stack, 'owner');
    other = await signUpPatient(stack, 'other');
    // Seen today (a walk-in, inside its check-in window), so that its record marks it attended. The
    // kiosk books with the patient's one-time code (docs/product/kiosk.md#proof).
    const code = await kioskCodeFromEvent(stack, actors.SERVICE_ACCOUNT.token, owner.email);
    const booked = await stack.api.post(
      '/dates/service',
      { pacientId: owner.id, code },
      actors.SERVICE_ACCOUNT.token,
    );
    expect(booked.status).toBe(201);
    appointmentId = booked.body.id;
    const record = await stack.api.post(
      '/records',
      { userId: owner.id, dateId: appointmentId, metadata: recordMetadata('Texto clínico del titular') },
      actors.DOCTOR.token,
    );
    expect(record.status).toBe(201);
    // The record marks its appointment attended (records → event → appointments), which frees the
    // owner to book the appointment the cancel/delete attempts below aim at.
    const deadline = Date.now() + 15_000;
    while ((await asDoctor(`/dates/id/${appointmentId}`)).body.status !== 'attended') {
      if (Date.now() > deadline) throw new Error('the record did not mark its appointment attended');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const active = await stack.api.post('/dates', { date: slots.next() }, owner.token);
    expect(active.status).toBe(201);
    activeId = active.body.id;
    activeDate = active.body.date;
  });

  const asDoctor = (path: string) => call(stack.gatewayUrl, 'GET', path, { token: actors.DOCTOR.token });
  const denied = (status: number) => expect([403, 404]).toContain(status);

  it('cannot read the other patient’s appointment, active appointments or history', async () => {
    for (const path of [
      `/dates/id/${appointmentId}`,
      `/dates/userid/${owner.id}`,
      `/dates/history/userid/${owner.id}`,
    ]) {
      const response = await call(stack.gatewayUrl, 'GET', path, { token: other.token });
      denied(response.status);
      expect(JSON.stringify(response.body)).not.toContain(owner.email);
    }
  });

  it('cannot cancel or delete the other patient’s appointment, which stays booked', async () => {
    const attempts = [
      call(stack.gatewayUrl, 'DELETE', `/dates/${encodeURIComponent(activeDate)}`, {
        token: other.token,
      }),
      call(stack.gatewayUrl, 'DELETE', `/dates/cancel/${activeId}`, { token: other.token }),
      call(stack.gatewayUrl, 'DELETE', `/dates/delete/${activeId}`, { token: other.token }),
    ];
    for (const response of await Promise.all(attempts)) denied(response.status);
    const reread = await asDoctor(`/dates/id/${activeId}`);
    expect(reread.body).toMatchObject({ id: activeId, status: 'booked', pacientId: owner.id });
  });

  it('books only for self even when the body names another patient', async () => {
    const response = await call(stack.gatewayUrl, 'POST', '/dates', {
      token: other.token,
      body: { date: slots.next(), pacientId: owner.id, userId: owner.id },
    });
    expect(response.status).toBeLessThan(500);
    if (response.status === 201) {
      const booked = await asDoctor(`/dates/id/${response.body.id}`);
      expect(booked.body.pacientId).toBe(other.id);
    }
    const ownerActive = await asDoctor(`/dates/userid/${owner.id}`);
    expect(ownerActive.body.appointment.map((a: { id: string }) => a.id)).toEqual([activeId]);
  });

  it('cannot read patients or users (staff and kiosk calls)', async () => {
    for (const path of [
      `/users/${owner.id}`,
      `/users/fetch?email=${encodeURIComponent(owner.email)}`,
      '/users',
      '/users/pacients',
    ]) {
      expect((await call(stack.gatewayUrl, 'GET', path, { token: other.token })).status).toBe(403);
    }
    const me = await call(stack.gatewayUrl, 'GET', '/auth/currentUser', { token: other.token });
    expect(me.body.id).toBe(other.id);
  });

  it('cannot read or change the other patient’s clinical record, which stays unchanged', async () => {
    expect(
      (await call(stack.gatewayUrl, 'GET', `/records/${appointmentId}`, { token: other.token })).status,
    ).toBe(403);
    const change = await call(stack.gatewayUrl, 'PUT', `/records/${appointmentId}`, {
      token: other.token,
      body: { metadata: { observations: { name: 'observations', value: 'cambiado por otro' } } },
    });
    expect(change.status).toBe(403);
    const reread = await asDoctor(`/records/${appointmentId}`);
    expect(reread.body.metadata.observations.value).toBe('Texto clínico del titular');
    expect(reread.body.userId).toBe(owner.id);
  });

  it('lets the kiosk read nobody by id or e-mail, and change no staff account', async () => {
    const kiosk = actors.SERVICE_ACCOUNT.token;
    for (const path of [
      `/users/${actors.DOCTOR.id}`,
      `/users/${owner.id}`,
      `/users/fetch?email=${encodeURIComponent(actors.ADMIN.email)}`,
      `/users/fetch?email=${encodeURIComponent(owner.email)}`,
    ])
      expect([path, (await call(stack.gatewayUrl, 'GET', path, { token: kiosk })).status]).toEqual([
        path,
        403,
      ]);
    const takeOver = await call(stack.gatewayUrl, 'POST', '/users/onboarding', {
      token: kiosk,
      body: { email: actors.DOCTOR.email, name: 'Suplantado', phone: '612345678', operation: 'update' },
    });
    expect(takeOver.status).toBe(403);
    const doctor = await call(stack.gatewayUrl, 'GET', '/auth/currentUser', { token: actors.DOCTOR.token });
    expect(doctor.body.profile.name).not.toBe('Suplantado');
    expect(doctor.body.rol).toBe('DOCTOR');
  });

  it('lets only the reservation’s doctor or an admin cancel a room reservation', async () => {
    const reserved = await stack.api.post(
      '/room-calendar',
      { room: 'consulta-1', dates: [freshRoomSlot()] },
      actors.DOCTOR.token,
    );
    expect(reserved.status).toBe(201);
    const anotherDoctor = mintToken({ id: uniqueId(), rol: 'DOCTOR' });
    const response = await call(stack.gatewayUrl, 'DELETE', `/room-calendar/${reserved.body.id}`, {
      token: anotherDoctor,
    });
    expect(response.status).toBe(403);
    const mine = await call(stack.gatewayUrl, 'GET', '/room-calendar/mine', { token: actors.DOCTOR.token });
    expect(mine.body.map((r: { id: string }) => r.id)).toContain(reserved.body.id);
  });
});

describe('sessions end when they should', () => {
  /**
   * Token `iat` is in whole seconds. A session signed in earlier in the same second as a password
   * reset must end with it (it did not: the valid-after second was the reset's own), and a new
   * sign-in right after the reset must still work.
   */
  it('ends a session issued in the same second as a password reset, and the next sign-in works', async () => {
    const email = uniqueEmail('reset');
    const created = await stack.api.post(
      '/auth/doctor/patient/create',
      { name: 'Reinicio Prueba', phone: uniquePhone(), email, password: 'Antigua1234!' },
      actors.DOCTOR.token,
    );
    expect(created.status).toBe(201);
    const events = await listenForMessages<{ data: { email: string; token: string } }>(
      stack.amqpUrl,
      stack.exchange,
      'auth.passwordReset.requested.v1',
    );
    try {
      let sameSecond = false;
      let password = 'Antigua1234!';
      // Sign-in and reset each hash a password (argon2): on a busy machine the pair does not always
      // fit in one second, so try a few times until it does.
      for (let attempt = 1; attempt <= 8 && !sameSecond; attempt++) {
        expect(
          (await stack.api.post('/auth/forgotPassword', { name: 'Reinicio Prueba', email })).status,
        ).toBe(200);
        const event = await events.waitFor(
          (m) => m.body.data.email === email && events.received.indexOf(m) === attempt - 1,
        );
        await sleep(1000 - (Date.now() % 1000) + 20); // just after a whole second
        const second = Math.floor(Date.now() / 1000);
        const old = await stack.signIn(email, password);
        const newPassword = `Nueva${attempt}-1234!`;
        const reset = await stack.api.post(`/auth/resetPassword/${event.body.data.token}`, {
          password: newPassword,
        });
        expect(reset.status).toBe(200);
        sameSecond = Math.floor(Date.now() / 1000) === second;
        password = newPassword;
        // Ended at the gateway (Redis) and at the auth service (its own database check).
        expect((await call(stack.gatewayUrl, 'GET', '/auth/currentUser', { token: old })).status).toBe(401);
        const direct = await fetch(`${stack.services.auth.url}/auth/currentUser`, {
          headers: { authorization: `Bearer ${old}` },
        });
        expect(direct.status).toBe(401);
      }
      expect(sameSecond).toBe(true);
      const fresh = await stack.signIn(email, password);
      expect((await call(stack.gatewayUrl, 'GET', '/auth/currentUser', { token: fresh })).status).toBe(200);
    } finally {
      await events.close();
    }
  });
});
