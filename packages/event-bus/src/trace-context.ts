import {
  context,
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  type Attributes,
  type Context,
  type Span,
} from '@opentelemetry/api';

/**
 * W3C trace context on the bus: an outbox entry keeps the `traceparent` of the request that wrote
 * it, the relay publishes it in a span that is a child of that request, and the message carries the
 * publish span's `traceparent` header, from which every consumer starts its own span. So one booking
 * is one trace from the gateway to the e-mail sent.
 *
 * Written against the OpenTelemetry API only: without an SDK started (no
 * OTEL_EXPORTER_OTLP_ENDPOINT) every span here is a no-op and no header is written. The header is
 * parsed and formatted here rather than through the global propagator, so a deployable that ignores
 * trace context sent by clients (the gateway) still follows the bus's.
 */

/** The message header and the outbox entry field that carry the W3C trace context. */
export const TRACEPARENT_HEADER = 'traceparent';

const TRACER_NAME = '@crm/event-bus';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The `traceparent` of a context's span (default: the active one), if it has a valid one. */
export function traceparentOf(ctx: Context = context.active()): string | undefined {
  const spanContext = trace.getSpanContext(ctx);
  if (!spanContext || !isSpanContextValid(spanContext)) return undefined;
  const flags = (spanContext.traceFlags & TraceFlags.SAMPLED).toString(16).padStart(2, '0');
  return `00-${spanContext.traceId}-${spanContext.spanId}-${flags}`;
}

/** A context whose (remote) parent is the given `traceparent`; `base` unchanged if it is not one. */
export function contextFromTraceparent(value: unknown, base: Context = context.active()): Context {
  const text = Buffer.isBuffer(value) ? value.toString('latin1') : value;
  if (typeof text !== 'string') return base;
  const match = TRACEPARENT.exec(text.trim());
  if (!match) return base;
  const spanContext = {
    traceId: match[1],
    spanId: match[2],
    traceFlags: parseInt(match[3], 16) & TraceFlags.SAMPLED,
    isRemote: true,
  };
  return isSpanContextValid(spanContext) ? trace.setSpanContext(base, spanContext) : base;
}

/** `{traceparent}` of the active span, to merge into message headers (empty without one). */
export function traceHeaders(ctx: Context = context.active()): Record<string, string> {
  const value = traceparentOf(ctx);
  return value ? { [TRACEPARENT_HEADER]: value } : {};
}

/** An outbox entry as stored: the envelope, plus the trace context of the write that stored it. */
export type TracedEntry<T extends object> = T & { [TRACEPARENT_HEADER]?: string };

/** Adds the active span's traceparent to outbox entries (unchanged entries without one). */
export function withTraceparent<T extends object>(entries: readonly T[]): TracedEntry<T>[] {
  const value = traceparentOf();
  return value ? entries.map((entry) => ({ ...entry, [TRACEPARENT_HEADER]: value })) : [...entries];
}

/** Splits a stored outbox entry into the envelope to publish and the trace context it was written in. */
export function splitTracedEntry(entry: unknown): { envelope: unknown; traceparent?: string } {
  if (!entry || typeof entry !== 'object' || !(TRACEPARENT_HEADER in entry)) return { envelope: entry };
  const { [TRACEPARENT_HEADER]: traceparent, ...envelope } = entry as Record<string, unknown>;
  return { envelope, traceparent: typeof traceparent === 'string' ? traceparent : undefined };
}

function tracer() {
  return trace.getTracer(TRACER_NAME);
}

/**
 * Runs `work` inside a new span (active for its duration) under `parent`; the span records a thrown
 * error (name and message only) and ends when `work` settles.
 */
export async function inSpan<T>(
  name: string,
  options: { kind: SpanKind; attributes?: Attributes; parent?: Context },
  work: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer().startActiveSpan(
    name,
    { kind: options.kind, attributes: options.attributes },
    options.parent ?? context.active(),
    async (span) => {
      try {
        return await work(span);
      } catch (err) {
        markFailed(span, err);
        throw err;
      } finally {
        span.end();
      }
    },
  );
}

/** Sets the span's status to error with the error's name and message (never a payload or a stack). */
export function markFailed(span: Span, err: unknown, message?: string): void {
  const name = err instanceof Error ? err.name : 'Error';
  const text = message ?? (err instanceof Error ? err.message : String(err));
  span.setStatus({ code: SpanStatusCode.ERROR, message: `${name}: ${text}`.slice(0, 300) });
}

export { SpanKind };
