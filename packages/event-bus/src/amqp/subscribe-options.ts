import type { EventContract, EventEnvelope } from '@crm/contracts';
import type { ContractData } from './event-envelope';
import type { ProcessedEventStore } from './processed-events';
import type { SingleLane } from './single-lane';

export interface HandlerContext {
  queue: string;
  /** 1 on the first delivery, incremented by every scheduled retry. */
  attempt: number;
  /** The broker redelivered it (a previous consumer died before acking). */
  redelivered: boolean;
}

export type EventHandler<C extends EventContract> = (
  event: EventEnvelope<ContractData<C>>,
  context: HandlerContext,
) => Promise<void> | void;

export type EventBinding<C extends EventContract = EventContract> = readonly [C, EventHandler<C>];

export interface SubscribeOptions<T extends readonly EventContract[]> {
  /** Durable queue of this consumer, e.g. `appointments.patient-snapshot`. */
  queue: string;
  /** One handler per event; each event name becomes a binding (routing key) of the queue. */
  events: { readonly [K in keyof T]: readonly [T[K], EventHandler<T[K]>] };
  idempotency: ProcessedEventStore;
  /** Unacked messages in flight at once (= handler concurrency). Default 10. */
  prefetch?: number;
  /** Attempts before a failing message goes to `<queue>.dlq`. Default 5. */
  maxAttempts?: number;
  /**
   * How long a dead-lettered copy stays in `<queue>.dlq` before the broker drops it (a per-message
   * expiration, so queues declared before keep working). Dead letters carry personal data (names,
   * e-mail addresses): they are kept for inspection, not for good. Absent: kept until removed.
   */
  deadLetterTtlMs?: number;
  /** Wait before retry n (last value repeats). Default 1 s, 5 s, 15 s, 60 s. */
  retryDelayMs?: readonly number[];
  /**
   * With a store that can claim (several replicas): how long a replica's claim on an event holds
   * before another may take it over (its holder is presumed dead). Longer than any handler run.
   * Default 2 min.
   */
  claimLeaseMs?: number;
  /** A copy that finds the event claimed by another replica is looked at again after this. Default 2 s. */
  busyRetryMs?: number;
  /**
   * Runs each handler together with the record that it succeeded in this lane (see SingleLane),
   * shared by the subscriptions that pass the same one. Claims are taken before waiting for the
   * lane: keep `prefetch` low so the wait stays well below `claimLeaseMs`.
   */
  lane?: SingleLane;
}
