import { isSpanContextValid, trace } from '@opentelemetry/api';

/**
 * The trace id of the active span, if tracing is on and a span is active (a request, an event being
 * handled, a relay publish); undefined otherwise, at the cost of one AsyncLocalStorage read.
 */
export function activeTraceId(): string | undefined {
  const spanContext = trace.getActiveSpan()?.spanContext();
  return spanContext && isSpanContextValid(spanContext) ? spanContext.traceId : undefined;
}
