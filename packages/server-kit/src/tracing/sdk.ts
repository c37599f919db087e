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
import { AmqplibInstrumentation } from '@opentelemetry/instrumentation-amqplib';
import { ExpressInstrumentation, ExpressLayerType } from '@opentelemetry/instrumentation-express';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { MongoDBInstrumentation } from '@opentelemetry/instrumentation-mongodb';
import { MongooseInstrumentation } from '@opentelemetry/instrumentation-mongoose';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
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
  instrumentations = [
    new HttpInstrumentation({
      // Probes and scrapes are not requests anyone follows; the exporter's own calls neither.
      ignoreIncomingRequestHook: (req) => HEALTH_PATHS.has((req.url ?? '').split('?')[0]),
      ignoreOutgoingRequestHook: (req) => String(req.path ?? '').endsWith('/v1/traces'),
      // Paths may hold one-time tokens (e-mailed links): recorded redacted, without the query.
      requestHook: (span, request) => {
        if ('socket' in request && 'method' in request && !('path' in request)) {
          const host = String(request.headers.host ?? '');
          span.setAttributes(redactedUrlAttributes(request.url, `http://${host}${request.url ?? ''}`));
        } else if ('path' in request) {
          const host = request.getHeader('host');
          const origin = `${request.protocol ?? 'http:'}//${String(host ?? request.host ?? '')}`;
          span.setAttributes(redactedUrlAttributes(request.path, `${origin}${request.path}`));
        }
      },
    }),
    // Routers and handlers; not every middleware layer (helmet, body parser…): noise, and a cost.
    ...(options.expressSpans === false
      ? []
      : [new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE] })]),
    new AmqplibInstrumentation(),
    new MongoDBInstrumentation({ dbStatementSerializer: () => '' }),
    new MongooseInstrumentation({ suppressInternalInstrumentation: true }),
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
