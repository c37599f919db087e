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

/** Accepts a client-sent request id only if it is short and harmless, so it cannot forge log lines. */
export function sanitizeRequestId(value: unknown): string {
  return typeof value === 'string' && SAFE_ID.test(value) ? value : randomUUID();
}
