import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { activeTraceId } from './tracing/active';

interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with a correlation id that logs and published events pick up automatically. */
export function runWithCorrelationId<T>(correlationId: string, fn: () => T): T {
  return storage.run({ correlationId }, fn);
}

/**
 * The request's correlation id; outside a request (an event being handled, the relay), the trace id
 * of the active span when tracing is on.
 */
export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId ?? activeTraceId();
}

/** The current request's correlation id, or a fresh one for work that starts outside a request. */
export function correlationIdOrNew(): string {
  return currentCorrelationId() ?? randomUUID();
}

const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Where the gateway passes on the request id a client sent (the request's own id is the gateway's). */
export const CLIENT_REQUEST_ID_HEADER = 'x-client-request-id';

/** A sent request id if it is short and harmless (it cannot forge log lines), else undefined. */
export function acceptableRequestId(value: unknown): string | undefined {
  return typeof value === 'string' && SAFE_ID.test(value) ? value : undefined;
}

/**
 * A request's correlation id: the trusted caller's X-Request-Id (the gateway's, which is its trace id
 * when tracing is on), else the trace id of the request's span, else a new uuid.
 */
export function requestIdFor(sent: unknown): string {
  return acceptableRequestId(sent) ?? activeTraceId() ?? randomUUID();
}
