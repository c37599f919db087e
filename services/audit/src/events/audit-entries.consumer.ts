import { auditEntryRecorded } from '@crm/contracts';
import { on, type ProcessedEventStore } from '@crm/event-bus';
import { auditEntriesQueue } from '@crm/server-kit/service';
import type { AuditService } from '../domain/audit.service';

/** `audit.entry.recorded.v1` from every service → the trail. */
export function auditEntryHandlers(audit: AuditService) {
  return [
    on(auditEntryRecorded, async (event) => {
      await audit.store(event.id, event.data);
    }),
  ] as const;
}

/**
 * The entries queue needs no processed-events records: storing is itself idempotent (row ids come
 * from the event id, under a unique index), and remembering each of millions of entries a second
 * time would double the writes and grow a second collection as large as the trail.
 */
export const storageIsIdempotent: ProcessedEventStore = {
  has: async () => false,
  markProcessed: async () => undefined,
};

/**
 * The subscription of the entries feed, on `<QUEUE_PREFIX>.audit.entries` (server-kit
 * `auditEntriesQueue`, which the broker's definitions declare ahead). Only entries from the
 * contract's publishers are stored: the event bus drops the rest. Entries are never given up on: a storage
 * failure (the database away) is retried every minute for as long as it lasts instead of going to
 * the dead-letter queue after the default 5 attempts; only a message that is not a valid entry is
 * dead-lettered (at once, by the consumer), where an operator can look at it.
 */
export function auditEntriesSubscription(audit: AuditService, queuePrefix: string) {
  return {
    queue: auditEntriesQueue(queuePrefix),
    events: auditEntryHandlers(audit),
    idempotency: storageIsIdempotent,
    prefetch: 20,
    maxAttempts: Number.MAX_SAFE_INTEGER,
    retryDelayMs: [1_000, 5_000, 15_000, 60_000],
  };
}
