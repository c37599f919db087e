import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { InstrumentationBase } from '@opentelemetry/instrumentation';
import { startTracing, type TracingHandle } from './start';

export type { ReadableSpan };

/**
 * Tests: tracing with every span kept in memory (no export), started like a deployable's (same
 * instrumentations, same propagation). Import the module that calls it before anything it traces.
 */
export function startInMemoryTracing(name = 'test'): { spans: InMemorySpanExporter; tracing: TracingHandle } {
  const spans = new InMemorySpanExporter();
  const tracing = startTracing(name, { spanProcessors: [new SimpleSpanProcessor(spans)], endpoint: '' });
  return { spans, tracing };
}

/** The span's parent span id (SDK 2 keeps it in `parentSpanContext`). */
export function parentIdOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/**
 * Jest loads modules through its own registry, where the instrumentations' require hooks never run:
 * this applies the HTTP instrumentation (the real one, as registered) to Node's `http` by hand, so
 * servers and clients of a test get their spans and trace context like a deployable's.
 */
export function instrumentNodeHttp(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { instrumentations } = require('./sdk') as typeof import('./sdk');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const http = require('node:http') as object;
  for (const instrumentation of instrumentations) {
    const withModules = instrumentation as Partial<InstrumentationBase>;
    for (const definition of withModules.getModuleDefinitions?.() ?? []) {
      if (definition.name === 'http') definition.patch?.(http, process.versions.node);
    }
  }
}
