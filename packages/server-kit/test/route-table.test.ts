import type { AddressInfo } from 'node:net';
import { mintToken, testTokens } from '@crm/testing';
import { requireAuth, TokenService } from '../src/auth';
import { RemoteKeys } from '../src/verification-keys';
import { createHttpApp } from '../src/http-app';
import { createLogger } from '../src/logger';
import { tableRouter, type RouteHandlers } from '../src/route-table';

const ok: RouteHandlers<'reporting'>['GET /reports/summary'] = (_req, res) => {
  res.json({ served: true });
};
/** Every route the table gives the reporting service, each answering the same. */
const handlers: RouteHandlers<'reporting'> = {
  'GET /reports/summary': ok,
  'GET /system/status': ok,
  'GET /system/dead-letters': ok,
  'POST /system/dead-letters/:queue/:messageId/redeliver': ok,
  'POST /system/dead-letters/:queue/:messageId/discard': ok,
};
const requireUser = requireAuth(testTokens());

describe('tableRouter', () => {
  it('serves a route with the roles of the table: no token 401, another role 403, the role 200', async () => {
    const app = createHttpApp({
      logger: createLogger('route-table-test', 'silent'),
      readiness: [],
      routes: (router) => router.use(tableRouter('reporting', handlers, requireUser)),
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/reports/summary`;
    const as = (rol?: 'ADMIN' | 'DOCTOR') =>
      fetch(url, { headers: rol ? { authorization: `Bearer ${mintToken({ id: 'u1', rol })}` } : {} }).then(
        (response) => response.status,
      );
    try {
      expect([await as(), await as('DOCTOR'), await as('ADMIN')]).toEqual([401, 403, 200]);
    } finally {
      server.close();
    }
  });

  it('answers 503, not 401, to a token of a key it cannot look up while the auth service is away', async () => {
    const unreachable = requireAuth(
      new TokenService(RemoteKeys.forAuthService('http://127.0.0.1:1', { timeoutMs: 500 })),
    );
    const app = createHttpApp({
      logger: createLogger('route-table-test', 'silent'),
      readiness: [],
      routes: (router) => router.use(tableRouter('reporting', handlers, unreachable)),
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const response = await fetch(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/reports/summary`,
        {
          headers: { authorization: `Bearer ${mintToken({ id: 'u1', rol: 'ADMIN' })}` },
        },
      );
      expect(response.status).toBe(503);
      expect(((await response.json()) as { message: string }).message).toMatch(/no está disponible/);
    } finally {
      server.close();
    }
  });

  it('refuses to start without a handler for a route of the table, or with one for a route it lacks', () => {
    expect(() => tableRouter('reporting', {} as RouteHandlers<'reporting'>, requireUser)).toThrow(
      'reporting: no handler for GET /reports/summary of the route table',
    );
    const extra = { ...handlers, 'GET /reports/secret': ok } as RouteHandlers<'reporting'>;
    expect(() => tableRouter('reporting', extra, requireUser)).toThrow(
      'reporting: handlers for routes not in the route table: GET /reports/secret',
    );
  });

  it('needs a token check for any route that is not public', () => {
    expect(() => tableRouter('reporting', handlers)).toThrow(
      'reporting: GET /reports/summary needs a token check (requireUser)',
    );
  });
});
