// Imported first by main.ts: tracing must start before express, http-proxy-middleware and ioredis
// load. The gateway faces clients: it never continues a trace context they send (it starts its own,
// whose id is the X-Request-Id), and passes its own on to the services. Its spans: the request, the
// proxied call and Redis; no Express layers (see TracingOptions.expressSpans).
import { startTracing } from '@crm/server-kit/tracing';

startTracing('gateway', { ignoreIncomingTraceContext: true, expressSpans: false });
