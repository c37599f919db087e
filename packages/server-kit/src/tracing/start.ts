import path from 'node:path';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';

export interface TracingOptions {
  /** Default: OTEL_SERVICE_NAME, else the name given to startTracing. */
  serviceName?: string;
  /** Default: OTEL_EXPORTER_OTLP_ENDPOINT (traces go to `<endpoint>/v1/traces`). */
  endpoint?: string;
  /** Instead of (or besides) the OTLP exporter: tests pass an in-memory exporter's processor. */
  spanProcessors?: SpanProcessor[];
  /**
   * Do not continue a trace context sent with incoming HTTP requests (the gateway: clients must not
   * choose the trace, hence the request id, their requests are recorded under). Default false.
   */
  ignoreIncomingTraceContext?: boolean;
  /**
   * No instrumentation: the process makes its HTTP spans itself (the gateway, whose hot path the
   * HTTP instrumentation slowed by a quarter). Default false.
   */
  ownHttpSpans?: boolean;
  env?: NodeJS.ProcessEnv;
}

export interface TracingHandle {
  enabled: boolean;
  serviceName: string;
  /** Exports what is buffered (call before exiting). */
  flush(): Promise<void>;
  /** Flushes and stops: no further spans are recorded. */
  shutdown(): Promise<void>;
}

/** The OTLP endpoint in use: OTEL_EXPORTER_OTLP_ENDPOINT, or none (tracing off). */
export function tracingEndpoint(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const value = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  return value ? value : undefined;
}

/** `services/auth` → `auth`: the folder of the deployable (containers set WORKSPACE). */
export function defaultServiceName(fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.OTEL_SERVICE_NAME?.trim() || fallback || path.basename(env.WORKSPACE ?? process.cwd());
}

let active: TracingHandle | undefined;

/**
 * Starts tracing for this process once (later calls answer the first handle). Without an endpoint
 * and without span processors it loads nothing and answers a disabled handle.
 */
export function startTracing(name: string, options: TracingOptions = {}): TracingHandle {
  if (active) return active;
  const env = options.env ?? process.env;
  const serviceName = options.serviceName ?? defaultServiceName(name, env);
  const endpoint = options.endpoint ?? tracingEndpoint(env);
  const disabled = env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true';
  if (disabled || (!endpoint && !options.spanProcessors?.length)) {
    return {
      enabled: false,
      serviceName,
      flush: () => Promise.resolve(),
      shutdown: () => Promise.resolve(),
    };
  }
  // Loaded only when tracing is on: a process without an endpoint pays nothing for the SDK.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { startSdk } = require('./sdk') as typeof import('./sdk');
  active = startSdk({ ...options, serviceName, endpoint });
  return active;
}

/** Exports the spans still buffered (a no-op without tracing); shutdown calls it before exiting. */
export async function flushTracing(): Promise<void> {
  await active?.flush().catch(() => undefined);
}
