import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Writable } from 'node:stream';
import { createHttpApp } from '../src/http-app';
import { createLogger } from '../src/logger';
import { prettyDestination } from '../src/log-format';
import { DEFAULT_METRICS_ALLOW_CIDRS, httpMetrics, parseAllowList } from '../src/metrics';
import { baseEnvSchema, loadConfig } from '../src/config';
import { requireAuth } from '../src/auth';
import { mintToken, testTokens } from '@crm/testing';

describe('the /metrics allow-list', () => {
  const allow = parseAllowList(DEFAULT_METRICS_ALLOW_CIDRS);

  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['192.168.1.20', true],
    ['fd12:3456::1', true],
    ['172.32.0.1', false],
    ['11.0.0.1', false],
    ['8.8.8.8', false],
    ['::ffff:8.8.8.8', false],
    ['2001:db8::1', false],
    ['fe80::1', false],
  ])('by default, %s may read: %s', (address, allowed) => {
    expect(allow.allows(address)).toBe(allowed);
  });

  it('METRICS_ALLOW_CIDRS replaces it; a bare address is one host; nonsense stops the start-up', () => {
    const config = loadConfig(baseEnvSchema, { METRICS_ALLOW_CIDRS: '10.0.0.0/8, 192.0.2.7' });
    const list = parseAllowList(config.METRICS_ALLOW_CIDRS);
    expect([list.allows('10.9.9.9'), list.allows('192.0.2.7'), list.allows('192.0.2.8')]).toEqual([
      true,
      true,
      false,
    ]);
    expect(list.allows('127.0.0.1')).toBe(false);
    expect(loadConfig(baseEnvSchema, {}).METRICS_ALLOW_CIDRS).toBe(DEFAULT_METRICS_ALLOW_CIDRS);
    for (const bad of ['10.0.0.0/33', 'localhost', '10.0.0.0/8/1', '::1/129'])
      expect(() => loadConfig(baseEnvSchema, { METRICS_ALLOW_CIDRS: bad })).toThrow(/METRICS_ALLOW_CIDRS/);
  });
});

/** A service app with one route behind a token check, logging into `lines`. */
async function serve(allowCidrs = DEFAULT_METRICS_ALLOW_CIDRS) {
  const lines: string[] = [];
  const logger = createLogger(
    'metrics-test',
    'info',
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    }),
  );
  const tokens = testTokens();
  const app = createHttpApp({
    logger,
    readiness: [],
    metrics: httpMetrics('metrics-test', allowCidrs),
    routes: (router) => {
      router.get('/patients/:id', requireAuth(tokens), (req, res) => {
        res.json({ id: req.params.id });
      });
      router.get('/boom', () => {
        throw new Error('kaput');
      });
    },
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, lines, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** A sample line of `name` whose labels include all of `labels`, in any order, with this value. */
const line = (name: string, labels: Record<string, string>, value: number) =>
  new RegExp(
    `^${name}\\{${Object.entries(labels)
      .map(([key, v]) => `(?=[^}]*${key}="${v.replace(/[/:]/g, '\\$&')}")`)
      .join('')}[^}]*\\} ${value}$`,
    'm',
  );

describe('a service’s /metrics and its request log', () => {
  it('answers loopback, but 403 when the allow-list does not hold the caller', async () => {
    const open = await serve();
    const closed = await serve('10.0.0.0/8,fc00::/7');
    try {
      expect((await fetch(`${open.url}/metrics`)).status).toBe(200);
      const refused = await fetch(`${closed.url}/metrics`);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toEqual({ message: 'Forbidden' });
      // The rest of the service is not affected by the list.
      expect((await fetch(`${closed.url}/healthz`)).status).toBe(200);
    } finally {
      await open.close();
      await closed.close();
    }
  });

  it('writes exactly one line per request: method, route pattern, status, duration, user id; no personal data', async () => {
    const service = await serve();
    try {
      const token = mintToken({ id: 'u-4242', rol: 'DOCTOR' });
      const email = 'ana.garcia@example.com';
      const response = await fetch(
        `${service.url}/patients/p-99?email=${encodeURIComponent(email)}&phone=612345678`,
        {
          headers: { authorization: `Bearer ${token}` },
        },
      );
      expect(response.status).toBe(200);
      expect((await fetch(`${service.url}/boom`)).status).toBe(500);
      expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      expect((await fetch(`${service.url}/metrics`)).status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));

      const requests = service.lines.map((line) => JSON.parse(line)).filter((line) => line.msg === 'request');
      expect(requests).toHaveLength(2); // probes and scrapes are not logged
      // The request's correlation id too, when the answer ends inside its context.
      const { correlationId, ...first } = requests[0];
      expect([undefined, first.requestId]).toContain(correlationId);
      expect(first).toEqual({
        level: 30,
        time: expect.any(String),
        service: 'metrics-test',
        name: 'metrics-test',
        msg: 'request',
        requestId: expect.any(String),
        method: 'GET',
        route: '/patients/:id',
        status: 200,
        durationMs: expect.any(Number),
        userId: 'u-4242',
      });
      expect(requests[1]).toMatchObject({ level: 40, route: '/boom', status: 500 });
      expect(requests[1]).not.toHaveProperty('userId');
      const all = service.lines.join('');
      for (const personal of [email, 'ana.garcia', 'Ana', '612345678', 'p-99', token, 'Bearer'])
        expect(all).not.toContain(personal);
    } finally {
      await service.close();
    }
  });

  it('counts requests by route pattern and status class', async () => {
    const service = await serve();
    try {
      await fetch(`${service.url}/boom`);
      await fetch(`${service.url}/patients/p-1`);
      await fetch(`${service.url}/nowhere/p-2`);
      const text = await (await fetch(`${service.url}/metrics`)).text();
      const labels = { method: 'GET', route: '/boom', status_class: '5xx', service: 'metrics-test' };
      expect(text).toMatch(line('crm_http_requests_total', labels, 1));
      expect(text).toMatch(line('crm_http_request_errors_total', labels, 1));
      expect(text).toMatch(
        line('crm_http_requests_total', { ...labels, route: '/patients/:id', status_class: '4xx' }, 1),
      );
      expect(text).toMatch(
        line('crm_http_requests_total', { ...labels, route: 'unmatched', status_class: '4xx' }, 1),
      );
      expect(text).not.toMatch(/p-1|p-2|nowhere/);
    } finally {
      await service.close();
    }
  });
});

describe('log format', () => {
  it('is JSON unless LOG_FORMAT=pretty (npm start on a terminal), then coloured lines, still redacted', async () => {
    expect(prettyDestination(undefined)).toBeUndefined();
    expect(prettyDestination('json')).toBeUndefined();
    const chunks: string[] = [];
    const out = new Writable({
      write(chunk, _encoding, done) {
        chunks.push(String(chunk));
        done();
      },
    });
    const logger = createLogger('pretty-test', 'info', prettyDestination('pretty', out));
    logger.info({ route: '/dates', password: 'canary-secret' }, 'request');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const output = chunks.join('');
    expect(output).toContain('request');
    expect(output).toContain(`${String.fromCharCode(27)}[`); // ANSI colours
    expect(output).not.toContain('canary-secret');
    expect(() => JSON.parse(output)).toThrow();
  });
});
