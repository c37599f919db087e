import { SpanKind, SpanStatusCode, trace, type Attributes } from '@opentelemetry/api';

/**
 * Runs `work` in a span of its own (child of the active one), ending it when `work` settles. A
 * thrown error marks the span failed with its name and message only. A no-op without tracing.
 */
export function withSpan<T>(
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  work: () => Promise<T>,
): Promise<T> {
  return trace
    .getTracer('@crm/server-kit')
    .startActiveSpan(
      name,
      { kind: options.kind ?? SpanKind.INTERNAL, attributes: options.attributes },
      async (span) => {
        try {
          return await work();
        } catch (err) {
          const label = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
          span.setStatus({ code: SpanStatusCode.ERROR, message: label.slice(0, 300) });
          throw err;
        } finally {
          span.end();
        }
      },
    );
}

export { SpanKind };
