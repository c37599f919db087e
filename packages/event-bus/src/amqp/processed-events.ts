/**
 * Remembers which events a consumer has already handled, so redeliveries (a consumer died before
 * its ack, a relay published twice) do not repeat side effects. Keys are `<queue>:<eventId>`:
 * two consumers of the same event keep separate records.
 *
 * The MongoDB/FerretDB store (the one services use) is `MongoProcessedEventStore` in the outbox
 * entry; this module stays free of mongoose so the transport can be loaded without it.
 */
export interface ProcessedEventStore {
  has(key: string): Promise<boolean>;
  /** Must not fail when the key already exists: another delivery of the same event got there first. */
  markProcessed(key: string): Promise<void>;
  /**
   * Optional, for consumers running as several replicas: takes the key for this process before
   * the handler runs, so two copies of one event delivered to two replicas at the same moment (two
   * outbox relays published it) do not both run the handler. `busy`: another process holds a
   * live claim; `processed`: already done. A claim not marked processed within `leaseMs` (its
   * holder died) can be taken over. Without it, `has` + `markProcessed` dedupe only sequential copies.
   */
  claim?(key: string, leaseMs: number): Promise<ClaimResult>;
  /** Gives up this process's claim (the handler failed), so a retry anywhere can claim it at once. */
  release?(key: string): Promise<void>;
}

export type ClaimResult = 'claimed' | 'processed' | 'busy';

export function processedEventKey(queue: string, eventId: string): string {
  return `${queue}:${eventId}`;
}

/** For unit tests only: forgets everything on restart, so it cannot deduplicate in production. */
export class InMemoryProcessedEventStore implements ProcessedEventStore {
  private readonly keys = new Set<string>();

  async has(key: string): Promise<boolean> {
    return this.keys.has(key);
  }

  async markProcessed(key: string): Promise<void> {
    this.keys.add(key);
  }

  get size(): number {
    return this.keys.size;
  }
}
