/**
 * Hygiene of the whole product.
 *  - Every response carries the security headers: API answers of every kind (2xx, 4xx from the
 *    gateway and from services, 413, 404), health probes, static files, the SPA fallback, misses.
 *  - CORS answers only the configured origins (never `*`), preflights included.
 *  - A canary password, session token, one-time token and clinical text never appear in any log
 *    line of any component (all logging at debug), nor (passwords, sessions, clinical text) in any
 *    event on the exchange.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { listenForMessages, uniqueEmail, uniqueId } from '@crm/testing';
import { slotAllocator } from '../test-support/slots';
import { uniquePhone } from '../test-support/patients';
import { recordMetadata, signInStaff, type Actor } from './support/actors';
import { call, isJsonError, type RawResponse } from './support/http';
import { Summary } from './support/summary';
import { startSystemStack, type SystemStack } from './support/system-stack';

jest.setTimeout(90_000);

const ALLOWED_ORIGIN = 'https://backoffice.crm.example';
const summary = new Summary('hygiene (headers, CORS, secrets in logs and events)');
let stack: SystemStack;
let doctor: Actor;
let frontendsDir: string;

/** A built-looking frontends folder: the shell with an asset, and one remote. */
function fakeFrontends(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'system-frontends-'));
  fs.mkdirSync(path.join(dir, 'shell/dist/assets'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'backoffice/dist'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'shell/dist/index.html'), '<!doctype html><title>CRM</title>');
  fs.writeFileSync(path.join(dir, 'shell/dist/assets/app-1a2b3c.js'), 'console.log(1)');
  fs.writeFileSync(path.join(dir, 'backoffice/dist/remoteEntry.js'), 'export {}');
  return dir;
}

beforeAll(async () => {
  frontendsDir = fakeFrontends();
  stack = await startSystemStack({ env: { CORS_ORIGINS: ALLOWED_ORIGIN, FRONTENDS_DIR: frontendsDir } });
  doctor = await signInStaff(stack, 'doctor');
}, 120_000);

afterAll(async () => {
  summary.print();
  await stack?.stop();
  fs.rmSync(frontendsDir, { recursive: true, force: true });
});

function expectSecurityHeaders(what: string, response: { headers: Headers }) {
  const h = response.headers;
  const seen = {
    what,
    nosniff: h.get('x-content-type-options'),
    csp: /default-src 'self'/.test(h.get('content-security-policy') ?? ''),
    frameAncestors:
      /frame-ancestors/.test(h.get('content-security-policy') ?? '') || h.get('x-frame-options') !== null,
    referrerPolicy: h.get('referrer-policy') !== null,
    permissionsPolicy: /camera=\(\)/.test(h.get('permissions-policy') ?? ''),
    poweredBy: h.get('x-powered-by'),
  };
  expect(seen).toEqual({
    what,
    nosniff: 'nosniff',
    csp: true,
    frameAncestors: true,
    referrerPolicy: true,
    permissionsPolicy: true,
    poweredBy: null,
  });
}

describe('security headers on every kind of response', () => {
  /** Any gateway path (health, static files, raw API paths), read in full like `call` does. */
  const raw = (pathAndQuery: string, headers: Record<string, string> = {}) =>
    call(stack.gatewayUrl, 'GET', pathAndQuery, { headers, outsideApi: true });
  const cases: Array<[string, () => Promise<RawResponse>, number]> = [
    ['API 200 (public list)', () => call(stack.gatewayUrl, 'GET', '/rooms'), 200],
    [
      'API 200 (signed in)',
      () => call(stack.gatewayUrl, 'GET', '/auth/currentUser', { token: doctor.token }),
      200,
    ],
    ['API 401 at the gateway', () => call(stack.gatewayUrl, 'GET', '/dates'), 401],
    [
      'API 403 from a service',
      () => call(stack.gatewayUrl, 'PUT', '/config/view?view=x', { token: doctor.token, body: {} }),
      403,
    ],
    ['API 404 unknown API route', () => call(stack.gatewayUrl, 'GET', '/nothing-here'), 404],
    [
      'API 404 from a service',
      () => call(stack.gatewayUrl, 'GET', `/records/${uniqueId()}`, { token: doctor.token }),
      404,
    ],
    ['API 400 ambiguous path', () => raw('/api/v1/dates/a%2fb'), 400],
    [
      'API 400 malformed JSON',
      () =>
        call(stack.gatewayUrl, 'POST', '/auth/signIn', {
          rawBody: '{',
          headers: { 'content-type': 'application/json' },
        }),
      400,
    ],
    [
      'API 413 body too large',
      () => call(stack.gatewayUrl, 'POST', '/auth/signIn', { body: { x: 'x'.repeat(200_000) } }),
      413,
    ],
    ['/healthz', () => raw('/healthz'), 200],
    ['/readyz', () => raw('/readyz'), 200],
    ['shell index.html', () => raw('/', { accept: 'text/html' }), 200],
    ['hashed asset', () => raw('/assets/app-1a2b3c.js'), 200],
    ['SPA fallback', () => raw('/faqs', { accept: 'text/html' }), 200],
    ['remote entry', () => raw('/mf/backoffice/remoteEntry.js'), 200],
    ['missing static file', () => raw('/missing.png'), 404],
  ];

  it.each(cases)('%s', async (what, request, status) => {
    const done = summary.case();
    const response = await request();
    expect([what, response.status]).toEqual([what, status]);
    expectSecurityHeaders(what, response);
    if (status >= 400) expect(isJsonError(response)).toBe(true);
    done.pass();
  });
});

describe('CORS only for the configured origins', () => {
  const withOrigin = (origin: string, init: RequestInit = {}) =>
    fetch(`${stack.gatewayUrl}/api/v1/rooms`, {
      ...init,
      headers: { origin, ...(init.headers as Record<string, string>) },
    });
  const preflight = (origin: string) =>
    withOrigin(origin, {
      method: 'OPTIONS',
      headers: { 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
    });

  it('answers the configured origin with its own name and credentials, never "*"', async () => {
    const done = summary.case();
    const simple = await withOrigin(ALLOWED_ORIGIN);
    expect(simple.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(simple.headers.get('access-control-allow-credentials')).toBe('true');
    const pre = await preflight(ALLOWED_ORIGIN);
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe(ALLOWED_ORIGIN);
    expect(pre.headers.get('access-control-allow-methods')).toMatch(/POST/);
    done.pass();
  });

  it.each([
    'https://evil.example',
    'null',
    `${ALLOWED_ORIGIN}.evil.example`,
    'http://backoffice.crm.example',
  ])('gives %s no CORS grant (and refuses its preflight)', async (origin) => {
    const done = summary.case();
    const simple = await withOrigin(origin);
    expect(simple.headers.get('access-control-allow-origin')).toBeNull();
    expect(simple.headers.get('access-control-allow-credentials')).toBeNull();
    const pre = await preflight(origin);
    expect(pre.status).toBe(403);
    expect(pre.headers.get('access-control-allow-origin')).toBeNull();
    expectSecurityHeaders(`preflight from ${origin}`, pre);
    done.pass();
  });
});

describe('secrets never reach a log line or an event', () => {
  it('keeps canary passwords, session and one-time tokens and clinical text out of every log line and event', async () => {
    const done = summary.case();
    const events = await listenForMessages(stack.amqpUrl, stack.exchange, '#');
    const linesBefore = stack.logs.length;
    const tag = randomBytes(4).toString('hex');
    const firstPassword = `CanaryPass-${tag}-1`;
    const secondPassword = `CanaryPass-${tag}-2`;
    const clinicalText = `CanaryClinical ${tag} uno`;
    const clinicalUpdate = `CanaryClinical ${tag} dos`;
    const email = uniqueEmail('canary');

    try {
      const signUp = await call(stack.gatewayUrl, 'POST', '/auth/signUp', {
        body: { name: 'Canario Prueba', phone: uniquePhone(), email, password: firstPassword },
      });
      expect(signUp.status).toBe(201);
      const signUpToken: string = signUp.body.sessiontoken;
      const [confirmation] = await stack.mail.waitForMessagesTo(email, 1, 20_000);
      const confirmToken = /confirm-account\/([A-Za-z0-9_-]+)/.exec(confirmation.Text)![1];
      expect((await call(stack.gatewayUrl, 'GET', `/auth/confirmAccount/${confirmToken}`)).status).toBe(200);
      // A wrong password (the other canary) is refused and must not be logged either.
      expect(
        (await call(stack.gatewayUrl, 'POST', '/auth/signIn', { body: { email, password: secondPassword } }))
          .status,
      ).toBe(401);
      const signIn = await call(stack.gatewayUrl, 'POST', '/auth/signIn', {
        body: { email, password: firstPassword },
      });
      expect(signIn.status).toBe(200);
      const sessionToken: string = signIn.body.sessiontoken;
      const patientId: string = signIn.body.id;

      const booked = await call(stack.gatewayUrl, 'POST', '/dates', {
        token: sessionToken,
        body: { date: slotAllocator(11).next() },
      });
      expect(booked.status).toBe(201);
      await call(stack.gatewayUrl, 'GET', '/dates/currentDate', { token: sessionToken });
      await call(stack.gatewayUrl, 'GET', '/records', { token: sessionToken }); // 403, logged

      const created = await call(stack.gatewayUrl, 'POST', '/records', {
        token: doctor.token,
        body: { userId: patientId, dateId: booked.body.id, metadata: recordMetadata(clinicalText) },
      });
      expect(created.status).toBe(201);
      const updated = await call(stack.gatewayUrl, 'PUT', `/records/${booked.body.id}`, {
        token: doctor.token,
        body: { metadata: { observations: { name: 'observations', value: clinicalUpdate } } },
      });
      expect(updated.status).toBe(200);
      const tooLong = await call(stack.gatewayUrl, 'PUT', `/records/${booked.body.id}`, {
        token: doctor.token,
        body: {
          metadata: { observations: { name: 'observations', value: `${clinicalText} ${'x'.repeat(120)}` } },
        },
      });
      expect(tooLong.status).toBe(400);
      expect(JSON.stringify(tooLong.body)).not.toContain(clinicalText);

      expect(
        (
          await call(stack.gatewayUrl, 'POST', '/auth/forgotPassword', {
            body: { name: 'Canario Prueba', email },
          })
        ).status,
      ).toBe(200);
      const mails = await stack.mail.waitForMessagesTo(email, 3, 20_000); // confirmation, booking, reset
      const reset = mails.find((mail) => /reset-password\//.test(mail.Text))!;
      const resetToken = /reset-password\/([A-Za-z0-9_-]+)/.exec(reset.Text)![1];
      expect(
        (
          await call(stack.gatewayUrl, 'POST', `/auth/resetPassword/${resetToken}`, {
            body: { password: secondPassword },
          })
        ).status,
      ).toBe(200);
      const again = await call(stack.gatewayUrl, 'POST', '/auth/signIn', {
        body: { email, password: secondPassword },
      });
      expect(again.status).toBe(200);
      // The old session ended with the reset: refused, and that refusal is logged too.
      expect((await call(stack.gatewayUrl, 'GET', '/auth/currentUser', { token: sessionToken })).status).toBe(
        401,
      );
      await call(stack.gatewayUrl, 'POST', '/auth/signOut', { token: again.body.sessiontoken });

      // Give the relay and the worker a moment to log what they do with these events.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const logText = stack.logs.slice(linesBefore).join('');
      const eventText = JSON.stringify(events.received);

      // The capture works: every component logged something of this scenario.
      const services = new Set(
        stack.logs.slice(linesBefore).map((line) => (JSON.parse(line) as { service?: string }).service),
      );
      expect([...services].sort()).toEqual(
        expect.arrayContaining(['appointments', 'auth', 'gateway', 'notifications', 'records']),
      );
      expect(events.received.length).toBeGreaterThanOrEqual(5);
      summary.set('log lines searched', stack.logs.length - linesBefore);
      summary.set('events searched', events.received.length);

      const secrets: Record<string, string> = {
        'first password': firstPassword,
        'second password': secondPassword,
        'sign-up session token': signUpToken,
        'session token': sessionToken,
        'session token signature': sessionToken.split('.')[2],
        'later session token': again.body.sessiontoken,
        'clinical text': clinicalText,
        'updated clinical text': clinicalUpdate,
        'confirmation token': confirmToken,
        'reset token': resetToken,
      };
      const inLogs = Object.entries(secrets)
        .filter(([, value]) => logText.includes(value))
        .map(([name]) => name);
      expect(inLogs).toEqual([]);
      // One-time tokens travel in e-mail requests by design (the e-mail must carry the link; see
      // packages/contracts auth.events.ts); everything else must never be on the bus.
      const notOnTheBus = Object.entries(secrets).filter(
        ([name]) => !/confirmation token|reset token/.test(name),
      );
      const inEvents = notOnTheBus.filter(([, value]) => eventText.includes(value)).map(([name]) => name);
      expect(inEvents).toEqual([]);
      summary.set('secrets found in logs', inLogs.length);
      summary.set('secrets found in events', inEvents.length);
      done.pass();
    } finally {
      await events.close();
    }
  });
});
