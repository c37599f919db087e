// Imported first by main.ts. The gateway faces clients: it never continues a trace context they send
// (it starts its own, whose id is the X-Request-Id), and passes its own on to the services. Its
// spans, the request and the proxied call, it makes itself (request-spans.ts): no instrumentation.
import { startTracing } from '@crm/server-kit/tracing';

startTracing('gateway', { ignoreIncomingTraceContext: true, ownHttpSpans: true });
