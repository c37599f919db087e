import {
  context,
  propagation,
  type Context,
  type TextMapGetter,
  type TextMapPropagator,
  type TextMapSetter,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { registerInstrumentations, type Instrumentation } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import { ServerResponse } from 'node:http';
import { expressRouteOf, UNMATCHED_ROUTE } from '../metrics/http';
import { redactedUrlAttributes } from './redact';
import type { TracingHandle, TracingOptions } from './start';

/** W3C trace context that writes outgoing headers but never takes a context from incoming ones. */
class InjectOnlyPropagator implements TextMapPropagator {
  private readonly w3c = new W3CTraceContextPropagator();
  inject(ctx: Context, carrier: unknown, setter: TextMapSetter): void {
    this.w3c.inject(ctx, carrier, setter);
  }
  extract(ctx: Context, _carrier: unknown, _getter: TextMapGetter): Context {
    return ctx;
  }
  fields(): string[] {
    return this.w3c.fields();
  }
}

/** The instrumentations registered (tests under jest apply the HTTP one by hand: testing.ts). */
export let instrumentations: Instrumentation[] = [];

const HEALTH_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

function hasTraceparent(headers: unknown): boolean {
  return typeof headers === 'object' && headers !== null && 'traceparent' in headers;
}

export function startSdk(options: TracingOptions & { serviceName: string }): TracingHandle {
  const processors: SpanProcessor[] = [...(options.spanProcessors ?? [])];
  if (options.endpoint) {
    const url = `${options.endpoint.replace(/\/+$/, '')}/v1/traces`;
    processors.push(new BatchSpanProcessor(new OTLPTraceExporter({ url })));
  }
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: options.serviceName }),
    spanProcessors: processors,
  });
  provider.register({
    propagator: options.ignoreIncomingTraceContext
      ? new InjectOnlyPropagator()
      : new W3CTraceContextPropagator(),
  });
  // The gateway makes its span itself (gateway/src/request-spans.ts): no instrumentation at all.
  // The services: HTTP in and out, the MongoDB driver's commands and Redis. Not Express (a span per
  // router layer), mongoose (a second span for each driver command) or amqplib (the bus makes its
  // own publish and consume spans, trace-context.ts): they doubled the spans, and their cost.
  instrumentations = options.ownHttpSpans
    ? []
    : [
        new HttpInstrumentation({
          // Probes and scrapes are not requests anyone follows; the exporter's own calls neither.
          ignoreIncomingRequestHook: (req) => HEALTH_PATHS.has((req.url ?? '').split('?')[0]),
          // Nor a call whose trace context its caller has set (the gateway's, when it runs in the
          // same process as the services in tests): that caller made its span.
          ignoreOutgoingRequestHook: (req) =>
            String(req.path ?? '').endsWith('/v1/traces') || hasTraceparent(req.headers),
          // Paths may hold one-time tokens (e-mailed links): recorded redacted, without the query
          // (which the instrumentation has already set as `url.query`: emptied).
          requestHook: (span, request) => {
            if ('socket' in request && 'method' in request && !('path' in request)) {
              const host = String(request.headers.host ?? '');
              span.setAttributes(redactedUrlAttributes(request.url, `http://${host}${request.url ?? ''}`));
              span.setAttribute('url.query', '');
            } else if ('path' in request) {
              const host = request.getHeader('host');
              const origin = `${request.protocol ?? 'http:'}//${String(host ?? request.host ?? '')}`;
              span.setAttributes(redactedUrlAttributes(request.path, `${origin}${request.path}`));
            }
          },
          // The route that answered names the span (`GET /dates/id/:id`), as the Express
          // instrumentation would, without a span per layer.
          applyCustomAttributesOnSpan: (span, request, response) => {
            if (!(response instanceof ServerResponse)) return;
            const route = expressRouteOf(request as Parameters<typeof expressRouteOf>[0]);
            if (route === UNMATCHED_ROUTE) return;
            span.setAttribute('http.route', route);
            span.updateName(`${request.method ?? 'GET'} ${route}`);
          },
        }),
        new MongoDBInstrumentation({ dbStatementSerializer: () => '' }),
        new IORedisInstrumentation({ dbStatementSerializer: (command) => command }),
      ];
  registerInstrumentations({ tracerProvider: provider, instrumentations });
  return {
    enabled: true,
    serviceName: options.serviceName,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      context.disable();
      propagation.disable();
    },
  };
}
