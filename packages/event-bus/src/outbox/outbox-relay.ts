import { context, ROOT_CONTEXT } from '@opentelemetry/api';
import type { Connection, mongo } from 'mongoose';
import type { EventEnvelope } from '@crm/contracts';
import { assertEnvelope, EventValidationError } from '../amqp/event-envelope';
import type { EnvelopePublisher } from '../amqp/event-publisher';
import { errorSummary, silentLogger, type Logger } from '../amqp/logger';
import { contextFromTraceparent, inSpan, SpanKind, splitTracedEntry } from '../trace-context';
import { nativeDb } from './mongo-helpers';
import { OUTBOX_FIELD, OUTBOX_PENDING_FIELD, OUTBOX_REJECTED_FIELD } from './outbox';

/**
 * A mongoose Model (any schema) or a native collection whose documents may carry an outbox. The model
 * is typed by the few members the relay reads: `Model<any>` is not assignable from every concrete
 * model under mongoose 9's types (its virtuals make `this` types incompatible).
 */
export interface OutboxModel {
  modelName: string;
  db: Connection;
  collection: { collectionName: string };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type OutboxSource = OutboxModel | mongo.Collection<any>;

export interface OutboxRelayOptions {
  publisher: EnvelopePublisher;
  sources: readonly OutboxSource[];
  /** Poll period, the safety net behind kick(). Default 500 ms. */
  intervalMs?: number;
  /** Documents read per collection per pass; a full batch triggers another pass at once. Default 100. */
  batchSize?: number;
  /** Per-publish wait for the broker. Short, so a pass gives up quickly during an outage. Default 5 s. */
  publishTimeoutMs?: number;
  logger?: Logger;
}

export interface RelayPassResult {
  published: number;
  /** True when a pass stopped on an error (broker or database away); it is retried later. */
  failed: boolean;
  /** A batch was full: there may be more pending documents right now. */
  more: boolean;
}

/** Loosely typed on purpose: the relay works over any aggregate's collection. */
type OutboxDocument = mongo.Document;

/**
 * Publishes events stored in document outboxes, then removes exactly the published entries.
 *
 * - Pending documents are found by their `outboxPending` flag, through a sparse index the relay
 *   makes itself, so a pass costs what is pending, not the size of the collection. The first pass
 *   after start-up also looks at the entries themselves (every document), once, for events stored
 *   without the flag (by a version before it).
 * - A document whose entries were all published is cleared in one write (entries and flag), on the
 *   condition that its outbox is still the one read; if a write added entries meanwhile, exactly the
 *   published entries are `$pull`ed instead and the flag stays for the next pass.
 * - Delivery is at-least-once: a crash between the broker's confirm and the removal, or two relay
 *   replicas reading the same document, publish an event twice. That is by design: consumers
 *   deduplicate by event id (see mongo-processed-event-store.ts), so the effect happens once.
 * - Entries of one document are published in array order, and a failed publish stops the pass,
 *   so events of one aggregate are never published out of order by one relay.
 * - Within one process, passes over the same collection never overlap, even across several relay
 *   instances (a process-wide lock per collection namespace).
 * - The broker or the database being away is expected: the pass stops, the poll retries, and the
 *   outage is logged once when it starts and once when it ends.
 */
export class OutboxRelay {
  private readonly logger: Logger;
  private readonly intervalMs: number;
  private readonly batchSize: number;
  private readonly publishTimeoutMs: number;
  private running = false;
  private stopping = false;
  private queued = false;
  private timer: NodeJS.Timeout | undefined;
  /** Serialises this relay's passes (poll and kicks alike). */
  private lock: Promise<unknown> = Promise.resolve();
  private outageSince: number | undefined;
  /** Collections (namespaces) with the flag's index made, and those read whole once since start-up. */
  private readonly indexed = new Set<string>();
  private readonly readWhole = new Set<string>();

  constructor(private readonly options: OutboxRelayOptions) {
    this.logger = options.logger ?? silentLogger;
    this.intervalMs = options.intervalMs ?? 500;
    this.batchSize = Math.max(1, options.batchSize ?? 100);
    this.publishTimeoutMs = options.publishTimeoutMs ?? 5_000;
  }

  /** Starts polling; the first pass runs at once (it picks up events left by a crashed process). */
  start(): this {
    if (this.running) return this;
    this.running = true;
    this.stopping = false;
    this.kick();
    return this;
  }

  /**
   * Asks for a pass as soon as possible; call it right after a write that added outbox entries.
   * Cheap and safe to call often: kicks coalesce while a pass is queued.
   */
  kick(): void {
    if (!this.running || this.queued) return;
    this.queued = true;
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    // Outside any request's trace: each entry's publish joins the trace stored with it instead, and
    // a kick from a request must not make the relay's later polls part of that request.
    void context
      .with(ROOT_CONTEXT, () =>
        this.exclusive(() => {
          this.queued = false;
          return this.pass();
        }),
      )
      .then(
        (result) => this.scheduleNext(result.more && !result.failed ? 0 : this.intervalMs),
        () => this.scheduleNext(this.intervalMs),
      );
  }

  /** One pass now, after any pass in progress (tests, or a final flush before shutdown). */
  runOnce(): Promise<RelayPassResult> {
    return this.exclusive(() => this.pass());
  }

  /** Stops polling and waits for the pass in progress. */
  async stop(): Promise<void> {
    this.running = false;
    this.stopping = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.lock;
  }

  private scheduleNext(delayMs: number): void {
    if (!this.running || this.queued) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, delayMs);
    // The relay must not keep a process alive on its own; the service's server does that.
    this.timer.unref();
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.lock.then(work, work);
    this.lock = run.catch(() => undefined);
    return run;
  }

  private async pass(): Promise<RelayPassResult> {
    const result: RelayPassResult = { published: 0, failed: false, more: false };
    try {
      for (const source of this.options.sources) {
        const collection = resolveCollection(source);
        await withNamespaceLock(collection.namespace, () => this.relayCollection(collection, result));
      }
    } catch (err) {
      result.failed = true;
      this.noteFailure(err);
      return result;
    }
    this.noteSuccess();
    return result;
  }

  private async relayCollection(
    collection: mongo.Collection<OutboxDocument>,
    result: RelayPassResult,
  ): Promise<void> {
    const namespace = collection.namespace;
    if (!this.indexed.has(namespace)) {
      await collection.createIndex({ [OUTBOX_PENDING_FIELD]: 1 }, { sparse: true });
      this.indexed.add(namespace);
    }
    const whole = !this.readWhole.has(namespace);
    // `'outbox.0': {$exists: true}` = "has at least one entry" (FerretDB 1.24 and MongoDB), read once.
    const pending = whole ? { [`${OUTBOX_FIELD}.0`]: { $exists: true } } : { [OUTBOX_PENDING_FIELD]: true };
    const documents = await collection
      .find(pending, { projection: { [OUTBOX_FIELD]: 1 } })
      .limit(this.batchSize)
      .toArray();
    if (documents.length === this.batchSize) result.more = true;
    else if (whole) this.readWhole.add(namespace);
    for (const document of documents) {
      // stop() mid-pass: finish the document in hand, start no new one.
      if (this.stopping) return;
      result.published += await this.relayDocument(collection, document);
    }
  }

  /** Publishes a document's entries in order, then removes those published; answers how many. */
  private async relayDocument(
    collection: mongo.Collection<OutboxDocument>,
    document: OutboxDocument,
  ): Promise<number> {
    const stored = Array.isArray(document.outbox) ? (document.outbox as unknown[]) : undefined;
    const published: unknown[] = [];
    const rejected = new Set<unknown>();
    let complete = false;
    try {
      for (const entry of stored ?? []) {
        if (this.stopping) return published.length;
        if (await this.relayEntry(collection, document._id, entry)) published.push(entry);
        else rejected.add(entry);
      }
      complete = true;
    } finally {
      // Also after a failed publish: what the broker confirmed is not published again.
      const left = stored?.filter((entry) => !rejected.has(entry));
      const unchanged = left ? { [OUTBOX_FIELD]: left } : { [OUTBOX_FIELD]: { $exists: false } };
      await this.removePublished(collection, document._id, published, complete ? unchanged : undefined);
    }
    return published.length;
  }

  /**
   * Clears the outbox and its flag in one write when every entry was handled and the outbox is still
   * `unchanged` (nothing added since it was read); else pulls exactly the published entries. Entries
   * are matched as whole elements (as read), not by `{id}`: FerretDB 1.24 ignores `$pull` conditions
   * on array-of-documents fields, while whole-element equality works on both servers. A removal
   * that changes nothing means another replica removed them first (it published them too: duplicate).
   */
  private async removePublished(
    collection: mongo.Collection<OutboxDocument>,
    documentId: unknown,
    published: unknown[],
    unchanged: Record<string, unknown> | undefined,
  ): Promise<void> {
    if (unchanged) {
      const cleared = await collection.updateOne(
        { ...byId(documentId), ...unchanged },
        update({ $unset: { [OUTBOX_FIELD]: '', [OUTBOX_PENDING_FIELD]: '' } }),
      );
      if (cleared.matchedCount === 1) return;
    }
    for (const entry of published) {
      await collection.updateOne(byId(documentId), update({ $pull: { [OUTBOX_FIELD]: entry } }));
    }
  }

  /** Publishes one entry (true), or moves an invalid one aside (false). */
  private async relayEntry(
    collection: mongo.Collection<OutboxDocument>,
    documentId: unknown,
    entry: unknown,
  ): Promise<boolean> {
    // The entry as stored is what removePublished matches; the broker gets the envelope alone.
    const { envelope: candidate, traceparent } = splitTracedEntry(entry);
    try {
      assertEnvelope(candidate);
    } catch (err) {
      if (!(err instanceof EventValidationError)) throw err;
      await this.reject(collection, documentId, entry, err);
      return false;
    }
    const envelope: EventEnvelope = candidate;
    // A span in the trace of the request that wrote the entry (a new trace for an entry without one).
    await inSpan(
      `publish ${envelope.name}`,
      {
        kind: SpanKind.PRODUCER,
        parent: contextFromTraceparent(traceparent, ROOT_CONTEXT),
        attributes: {
          'messaging.system': 'rabbitmq',
          'messaging.operation.type': 'publish',
          'messaging.destination.name': envelope.name,
          'messaging.message.id': envelope.id,
          'crm.outbox.collection': collection.collectionName,
        },
      },
      () => this.options.publisher.publishEnvelope(envelope, { timeoutMs: this.publishTimeoutMs }),
    );
    this.logger.debug(
      { eventId: envelope.id, event: envelope.name, collection: collection.collectionName },
      'outbox event published',
    );
    return true;
  }

  private async reject(
    collection: mongo.Collection<OutboxDocument>,
    documentId: unknown,
    entry: unknown,
    err: EventValidationError,
  ): Promise<void> {
    // Moved aside in one write: it will never become valid, and retrying it would only spin.
    await collection.updateOne(
      byId(documentId),
      update({ $pull: { [OUTBOX_FIELD]: entry }, $push: { [OUTBOX_REJECTED_FIELD]: entry } }),
    );
    this.logger.error(
      { collection: collection.collectionName, documentId: String(documentId), issues: err.issues },
      `invalid outbox entry moved to ${OUTBOX_REJECTED_FIELD}`,
    );
  }

  private noteFailure(err: unknown): void {
    if (this.outageSince === undefined) {
      this.outageSince = Date.now();
      this.logger.warn({ err: errorSummary(err) }, 'outbox relay cannot publish; retrying until it can');
    } else {
      this.logger.debug({ err: errorSummary(err) }, 'outbox relay pass failed again');
    }
  }

  private noteSuccess(): void {
    if (this.outageSince === undefined) return;
    this.logger.info({ downForMs: Date.now() - this.outageSince }, 'outbox relay publishing again');
    this.outageSince = undefined;
  }
}

function resolveCollection(source: OutboxSource): mongo.Collection<OutboxDocument> {
  // A model is a function (its class); mongoose's collection wrappers also carry `modelName`.
  if (typeof source === 'function') {
    const model = source as OutboxModel;
    // The native collection: mongoose's wrapper would buffer operations while disconnected,
    // whereas the relay wants a failure it can log and retry.
    return nativeDb(model.db).collection<OutboxDocument>(model.collection.collectionName);
  }
  return source as mongo.Collection<OutboxDocument>;
}

// The driver's typed filters cannot express "any aggregate"; these documents are built above.
const byId = (id: unknown): mongo.Filter<OutboxDocument> => ({ _id: id }) as mongo.Filter<OutboxDocument>;
const update = (u: Record<string, unknown>): mongo.UpdateFilter<OutboxDocument> =>
  u as mongo.UpdateFilter<OutboxDocument>;

/** Process-wide: two relays over the same collection take turns instead of racing. */
const namespaceLocks = new Map<string, Promise<unknown>>();

async function withNamespaceLock<T>(namespace: string, work: () => Promise<T>): Promise<T> {
  const previous = namespaceLocks.get(namespace) ?? Promise.resolve();
  const run = previous.then(work, work);
  const tail = run.catch(() => undefined);
  namespaceLocks.set(namespace, tail);
  try {
    return await run;
  } finally {
    if (namespaceLocks.get(namespace) === tail) namespaceLocks.delete(namespace);
  }
}
