/**
 * Traces (OpenTelemetry). Each deployable starts tracing from a `tracing.ts` imported first by its
 * `main.ts` (before express, mongoose, amqplib or ioredis load, so their instrumentations apply):
 *
 *   // services/<name>/src/tracing.ts
 *   import { startTracing } from '@crm/server-kit/tracing';
 *   startTracing('<name>');
 *
 * Without OTEL_EXPORTER_OTLP_ENDPOINT nothing is started: no SDK is even loaded, spans made through
 * the API are no-ops and correlation ids stay random uuids. With it, spans go to
 * `<endpoint>/v1/traces` (OTLP http/protobuf), and the trace id is the request's correlation id
 * (logs, X-Request-Id, events' correlationId). The bus's trace context is @crm/event-bus's
 * trace-context.ts.
 */
export { activeTraceId } from './active';
export { redactPath } from './redact';
export {
  flushTracing,
  startTracing,
  tracingEndpoint,
  type TracingHandle,
  type TracingOptions,
} from './start';
// A span of its own around some work (the e-mail worker's SMTP send): the bus's helper.
export { inSpan as withSpan, SpanKind } from '@crm/event-bus/trace-context';
