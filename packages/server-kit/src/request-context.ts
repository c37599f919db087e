import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface RequestContext {
  correlationId: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

/** Runs `fn` with a correlation id that logs and published events pick up automatically. */
export function runWithCorrelationId<T>(correlationId: string, fn: () => T): T {
  return storage.run({ correlationId }, fn);
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlationId;
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

/** Accepts a sent request id only if it is short and harmless, else makes a new one. */
export function sanitizeRequestId(value: unknown): string {
  return acceptableRequestId(value) ?? randomUUID();
}
