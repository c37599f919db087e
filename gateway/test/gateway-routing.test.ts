import { once } from 'node:events';
import net from 'node:net';
import { HTTP_MESSAGES } from '@crm/server-kit';
import { mintToken, type RunningServer, uniqueName } from '@crm/testing';
import { startGateway, type RunningGateway } from './support/gateway';
import {
  closedPortUrl,
  rawRequest,
  startEchoUpstream,
  startSilentUpstream,
  type Echo,
} from './support/upstreams';

/**
 * Sends a POST of `size` bytes in 256 kB writes, each waiting for the socket to take it, and reads
 * the answer only once everything is sent: a server that closes the connection early makes one of
 * these writes fail (reset), and the answer is never read.
 */
async function uploadThenRead(url: string, path: string, size: number): Promise<string> {
  const target = new URL(url);
  const socket = net.connect(Number(target.port), target.hostname);
  await once(socket, 'connect');
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  const closed = once(socket, 'close');
  const write = (data: string | Buffer) =>
    new Promise<void>((resolve, reject) =>
      socket.write(data, (error) => (error ? reject(error) : resolve())),
    );
  await write(
    `POST ${path} HTTP/1.1\r\nHost: ${target.host}\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
  );
  const piece = Buffer.alloc(256 * 1024, 0x61);
  for (let sent = 0; sent < size; sent += piece.length) await write(piece);
  await closed;
  return Buffer.concat(received).toString('utf8');
}

const token = mintToken({ id: uniqueName('user'), rol: 'ADMIN' });
const authorized = { authorization: `Bearer ${token}` };

let upstreams: Record<'auth' | 'appointments' | 'records' | 'rooms' | 'config', RunningServer>;
let silent: RunningServer;
let gw: RunningGateway;
let degraded: RunningGateway;

beforeAll(async () => {
  const [auth, appointments, records, rooms, config, quiet] = await Promise.all([
    startEchoUpstream('auth'),
    startEchoUpstream('appointments'),
    startEchoUpstream('records'),
    startEchoUpstream('rooms'),
    startEchoUpstream('config'),
    startSilentUpstream(),
  ]);
  upstreams = { auth, appointments, records, rooms, config };
  silent = quiet;
  gw = await startGateway({
    AUTH_SERVICE_URL: auth.url,
    APPOINTMENTS_SERVICE_URL: appointments.url,
    RECORDS_SERVICE_URL: records.url,
    ROOMS_SERVICE_URL: rooms.url,
    CONFIG_SERVICE_URL: config.url,
  });
  // Records down (nobody listening), config hanging: the gateway must answer fast and in JSON.
  degraded = await startGateway({
    AUTH_SERVICE_URL: auth.url,
    RECORDS_SERVICE_URL: await closedPortUrl(),
    CONFIG_SERVICE_URL: silent.url,
    PROXY_TIMEOUT_MS: '300',
  });
});

afterAll(async () => {
  await Promise.all([gw.close(), degraded.close()]);
  await Promise.all([...Object.values(upstreams), silent].map((s) => s.close()));
});

describe('routing table', () => {
  it.each([
    ['/api/v1/auth/currentUser', 'auth', '/auth/currentUser'],
    ['/api/v1/users?page=2&limit=10', 'auth', '/users?page=2&limit=10'],
    ['/api/v1/users/fetch?email=a%40b.c', 'auth', '/users/fetch?email=a%40b.c'],
    ['/api/v1/dates/userid/42', 'appointments', '/dates/userid/42'],
    ['/api/v1/dates', 'appointments', '/dates'],
    ['/api/v1/records/abc', 'records', '/records/abc'],
    ['/api/v1/rooms', 'rooms', '/rooms'],
    ['/api/v1/room-calendar/reserved-dates', 'rooms', '/room-calendar/reserved-dates'],
    ['/api/v1/config/view?view=patients', 'config', '/config/view?view=patients'],
  ])('routes %s to %s as %s', async (path, upstream, servicePath) => {
    const res = await fetch(gw.url + path, { headers: authorized });
    expect(res.status).toBe(200);
    const echo = (await res.json()) as Echo;
    expect(echo.upstream).toBe(upstream);
    expect(echo.path).toBe(servicePath);
  });

  it.each(['/api/v1/whatever', '/api/v1/authx', '/api/v1', '/api/v2/dates', '/api', '/api/other'])(
    'answers 404 JSON for the unknown API route %s',
    async (path) => {
      const res = await fetch(gw.url + path, { headers: authorized });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(await res.json()).toEqual({ message: HTTP_MESSAGES.routeNotFound });
    },
  );

  it('proxies other methods with their bodies', async () => {
    const res = await fetch(`${gw.url}/api/v1/records/r1`, {
      method: 'PUT',
      headers: { ...authorized, 'content-type': 'application/json' },
      body: JSON.stringify({ metadata: { note: 'ok' } }),
    });
    const echo = (await res.json()) as Echo;
    expect(echo.method).toBe('PUT');
    expect(echo.body).toEqual({ metadata: { note: 'ok' } });
  });
});

describe('request bodies', () => {
  it('refuses a Content-Length above BODY_LIMIT with 413 JSON before proxying, without reading the body', async () => {
    // Only the headers and a first chunk are sent: the answer must not wait for the other 200 kB.
    const res = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/v1/records',
      headers: { ...authorized, 'content-type': 'application/json', 'content-length': String(200 * 1024) },
      body: '{"metadata":"',
      keepOpen: true,
    });
    expect(res.status).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(JSON.parse(res.text)).toEqual({ message: HTTP_MESSAGES.tooLarge });
  });

  it('answers a real 16 MB JSON upload with a readable 413 JSON, every time (no reset while sending)', async () => {
    const body = JSON.stringify({ metadata: { note: 'x'.repeat(16 * 1024 * 1024) } });
    for (let attempt = 0; attempt < 5; attempt++) {
      const res = await fetch(`${gw.url}/api/v1/records`, {
        method: 'POST',
        headers: { ...authorized, 'content-type': 'application/json' },
        body,
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({ message: HTTP_MESSAGES.tooLarge });
    }
    // A client that sends the whole body before it reads anything (as many HTTP clients do).
    for (let attempt = 0; attempt < 3; attempt++) {
      const answer = await uploadThenRead(gw.url, '/api/v1/records', 16 * 1024 * 1024);
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
        message: HTTP_MESSAGES.tooLarge,
      });
    }
  }, 60_000);

  it('answers 413 JSON to an oversized declared body even on a public route', async () => {
    const res = await fetch(`${gw.url}/api/v1/auth/signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(150 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: HTTP_MESSAGES.tooLarge });
  });

  it('passes a malformed JSON body to the service, whose 400 comes back untouched', async () => {
    const res = await fetch(`${gw.url}/api/v1/auth/signIn`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": "a@b.c",',
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message: HTTP_MESSAGES.malformedJson });
  });

  it('streams a chunked body through; the service enforces its own limit (413 JSON)', async () => {
    const small = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/v1/records',
      headers: { ...authorized, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: ['{"userId":', '"u1"}'],
    });
    expect(small.status).toBe(200);
    expect((JSON.parse(small.text) as Echo).body).toEqual({ userId: 'u1' });

    const big = await rawRequest(gw.url, {
      method: 'POST',
      path: '/api/v1/records',
      headers: { ...authorized, 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      body: ['{"metadata":"', 'x'.repeat(80 * 1024), 'x'.repeat(80 * 1024), '"}'],
    });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.text)).toEqual({ message: HTTP_MESSAGES.tooLarge });
  });
});

describe('upstream failures', () => {
  it('answers 503 JSON at once when the service is down', async () => {
    const started = Date.now();
    const res = await fetch(`${degraded.url}/api/v1/records`, { headers: authorized });
    expect(res.status).toBe(503);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    expect(await res.json()).toEqual({ message: HTTP_MESSAGES.unavailable });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('answers 504 JSON when the service does not answer within PROXY_TIMEOUT_MS', async () => {
    const started = Date.now();
    const res = await fetch(`${degraded.url}/api/v1/config/view?view=x`, { headers: authorized });
    expect(res.status).toBe(504);
    expect(await res.json()).toEqual({ message: HTTP_MESSAGES.gatewayTimeout });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('keeps serving the other services while one is down', async () => {
    const res = await fetch(`${degraded.url}/api/v1/auth/currentUser`, { headers: authorized });
    expect(res.status).toBe(200);
  });
});

describe('per-route middleware seam', () => {
  it('runs a hook registered for one method and path before proxying, and only there', async () => {
    const hooked = await startGateway(
      { CONFIG_SERVICE_URL: upstreams.config.url, RECORDS_SERVICE_URL: upstreams.records.url },
      {
        routeMiddleware: [
          {
            method: 'GET',
            path: '/config/view',
            handle: (req, res, next) => {
              if (req.url?.includes('view=cached')) {
                res.setHeader('content-type', 'application/json');
                res.end(JSON.stringify({ cached: true }));
                return;
              }
              next();
            },
          },
        ],
      },
    );
    try {
      const cached = await fetch(`${hooked.url}/api/v1/config/view?view=cached`, { headers: authorized });
      expect(await cached.json()).toEqual({ cached: true });
      const passed = await fetch(`${hooked.url}/api/v1/config/view?view=other`, { headers: authorized });
      expect(((await passed.json()) as Echo).path).toBe('/config/view?view=other');
      // The hook sits behind the JWT check.
      expect((await fetch(`${hooked.url}/api/v1/config/view?view=cached`)).status).toBe(401);
    } finally {
      await hooked.close();
    }
  });
});
