// First: the SDK (in-memory spans) and the HTTP instrumentation, before the gateway loads.
import { spans } from '../../packages/server-kit/test/tracing/in-memory';
import { SpanKind } from '@opentelemetry/api';
import { eventually, mintToken, type RunningServer, uniqueName } from '@crm/testing';
import { parentIdOf, type ReadableSpan } from '@crm/server-kit/tracing-testing';
import { startGateway, type RunningGateway } from './support/gateway';
import { startEchoUpstream, type Echo } from './support/upstreams';

/**
 * The gateway's own span (request-spans.ts): a new trace per request whatever the client sends,
 * its id the X-Request-Id, passed on in the traceparent the service continues, and no one-time
 * token of a path in any attribute.
 */
let auth: RunningServer;
let appointments: RunningServer;
let gw: RunningGateway;
const token = mintToken({ id: uniqueName('user'), rol: 'ADMIN' });
const CLIENT_TRACE = '0af7651916cd43dd8448eb211c80319c';

beforeAll(async () => {
  [auth, appointments] = await Promise.all([startEchoUpstream('auth'), startEchoUpstream('appointments')]);
  gw = await startGateway({ AUTH_SERVICE_URL: auth.url, APPOINTMENTS_SERVICE_URL: appointments.url });
});

afterAll(async () => {
  await gw.close();
  await Promise.all([auth.close(), appointments.close()]);
});

const gatewaySpans = (traceId: string) =>
  spans
    .getFinishedSpans()
    .filter((s) => s.instrumentationScope.name === '@crm/gateway' && s.spanContext().traceId === traceId);

async function finished(traceId: string, count: number): Promise<ReadableSpan[]> {
  return eventually(
    async () => {
      const found = spans.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
      return found.length >= count ? found : undefined;
    },
    5000,
    `${count} spans of trace ${traceId}`,
  );
}

it('starts its own trace, whose id is the X-Request-Id, and the service continues it', async () => {
  const res = await fetch(`${gw.url}/api/v1/dates?month=2026-12`, {
    headers: {
      authorization: `Bearer ${token}`,
      traceparent: `00-${CLIENT_TRACE}-b7ad6b7169203331-01`,
      tracestate: 'client=chosen',
    },
  });
  expect(res.status).toBe(200);
  const echo = (await res.json()) as Echo;
  const traceId = res.headers.get('x-request-id')!;
  expect(traceId).toMatch(/^[0-9a-f]{32}$/);
  expect(traceId).not.toBe(CLIENT_TRACE);
  expect(echo.headers.tracestate).toBeUndefined();

  const trace = await finished(traceId, 2);
  const [server] = gatewaySpans(traceId);
  expect(server!.kind).toBe(SpanKind.SERVER);
  expect(parentIdOf(server!)).toBeUndefined();
  expect(server!.name).toBe('GET appointments');
  expect(server!.attributes['url.path']).toBe('/api/v1/dates');
  expect(server!.attributes['http.response.status_code']).toBe(200);
  // The service got the gateway span's context, and its own request span sits under it.
  expect(echo.headers.traceparent).toBe(`00-${traceId}-${server!.spanContext().spanId}-01`);
  const service = trace.find((s) => s.kind === SpanKind.SERVER && s !== server);
  expect(parentIdOf(service!)).toBe(server!.spanContext().spanId);
  // The HTTP instrumentation leaves a call whose trace context its caller has set.
  expect(trace.filter((s) => s.kind === SpanKind.CLIENT)).toHaveLength(0);
});

it('records a path without its one-time token, and a refusal with its status', async () => {
  const secret = 'x'.repeat(40);
  const confirmed = await fetch(`${gw.url}/api/v1/auth/confirmAccount/${secret}?next=${secret}`);
  const confirmedTrace = await finished(confirmed.headers.get('x-request-id')!, 2);
  expect(JSON.stringify(confirmedTrace.map((s) => [s.name, s.attributes]))).not.toContain(secret);

  const refused = await fetch(`${gw.url}/api/v1/dates`);
  expect(refused.status).toBe(401);
  const traceId = refused.headers.get('x-request-id')!;
  const [server] = await eventually(async () => {
    const found = gatewaySpans(traceId);
    return found.length ? found : undefined;
  }, 5000);
  expect(server!.kind).toBe(SpanKind.SERVER);
  expect(server!.attributes['http.response.status_code']).toBe(401);
  expect(server!.name).toBe('GET'); // refused at the gateway: no service called
});
