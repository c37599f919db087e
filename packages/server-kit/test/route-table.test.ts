import type { AddressInfo } from 'node:net';
import { mintToken, testTokens } from '@crm/testing';
import { requireAuth } from '../src/auth';
import { createHttpApp } from '../src/http-app';
import { createLogger } from '../src/logger';
import { tableRouter, type RouteHandlers } from '../src/route-table';

const ok: RouteHandlers<'reporting'>['GET /reports/summary'] = (_req, res) => {
  res.json({ served: true });
};
const requireUser = requireAuth(testTokens());

describe('tableRouter', () => {
  it('serves a route with the roles of the table: no token 401, another role 403, the role 200', async () => {
    const app = createHttpApp({
      logger: createLogger('route-table-test', 'silent'),
      readiness: [],
      routes: (router) => router.use(tableRouter('reporting', { 'GET /reports/summary': ok }, requireUser)),
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

  it('refuses to start without a handler for a route of the table, or with one for a route it lacks', () => {
    expect(() => tableRouter('reporting', {} as RouteHandlers<'reporting'>, requireUser)).toThrow(
      'reporting: no handler for GET /reports/summary of the route table',
    );
    const extra = { 'GET /reports/summary': ok, 'GET /reports/secret': ok } as RouteHandlers<'reporting'>;
    expect(() => tableRouter('reporting', extra, requireUser)).toThrow(
      'reporting: handlers for routes not in the route table: GET /reports/secret',
    );
  });

  it('needs a token check for any route that is not public', () => {
    expect(() => tableRouter('reporting', { 'GET /reports/summary': ok })).toThrow(
      'reporting: GET /reports/summary needs a token check (requireUser)',
    );
  });
});
