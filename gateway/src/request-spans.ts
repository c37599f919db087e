import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  isSpanContextValid,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Span,
} from '@opentelemetry/api';
import { redactPath } from '@crm/server-kit/tracing';

/**
 * The gateway's span, made here by hand: one SERVER span per `/api` request, a new trace whose id
 * is the X-Request-Id, and whose context goes on to the service in the request's `traceparent`
 * (the service's request span is its child). The HTTP instrumentation would give a span for the
 * request and one for the proxied call, but by wrapping every socket, request and response and
 * entering an async context around each: on the hot path that, and the second span, cost the
 * gateway a quarter of its throughput. Without a tracer provider (tracing off) the span is a no-op.
 */
const tracer = trace.getTracer('@crm/gateway');
const spans = new WeakMap<IncomingMessage, Span>();

/** Headers a client could send to choose the trace its requests are recorded under. */
const TRACE_HEADERS = ['traceparent', 'tracestate', 'baggage'];

/**
 * Starts the request's span and answers its trace id (undefined with tracing off). Trace headers a
 * client sent are dropped: the gateway never continues a client's trace.
 */
export function startRequestSpan(req: IncomingMessage, res: ServerResponse): string | undefined {
  for (const name of TRACE_HEADERS) delete req.headers[name];
  const method = req.method ?? 'GET';
  const path = redactPath(req.url) ?? '/';
  const span = tracer.startSpan(method, {
    kind: SpanKind.SERVER,
    root: true,
    attributes: { 'http.request.method': method, 'url.path': path },
  });
  const spanContext = span.spanContext();
  if (!isSpanContextValid(spanContext)) return undefined;
  spans.set(req, span);
  res.once('close', () => {
    const status = res.writableFinished ? res.statusCode : 499; // 499: the client went away first
    span.setAttribute('http.response.status_code', status);
    if (status >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
    span.end();
  });
  return spanContext.traceId;
}

/** Before the call to `upstream`: names the span after it and passes its context on. */
export function traceUpstreamCall(req: IncomingMessage, upstream: string): void {
  const span = spans.get(req);
  if (!span) return;
  span.updateName(`${req.method ?? 'GET'} ${upstream}`);
  propagation.inject(trace.setSpan(ROOT_CONTEXT, span), req.headers);
}
