import { EventEmitter } from 'node:events';
import type { ChannelModel, ConfirmChannel, ConsumeMessage, Options } from 'amqplib';
import { eventEnvelopeSchema, type EventContract, type EventEnvelope } from '@crm/contracts';
import type { AmqpConnection, SetupRegistration } from './amqp-connection';
import { describeIssues, type ContractData } from './event-envelope';
import { errorSummary, silentLogger, truncate, type Logger } from './logger';
import { processedEventKey, type ProcessedEventStore } from './processed-events';
import type { SingleLane } from './single-lane';
import { attemptFromHeaders, DEFAULT_RETRY_DELAYS_MS, retryDelayFor } from './retry-schedule';
import { assertConsumerQueues, DEFAULT_EXCHANGE, deadLetterQueueName, retryQueueName } from './topology';

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

/** Typed `[contract, handler]` pair; handy when building the list outside the subscribe call. */
export function on<C extends EventContract>(contract: C, handler: EventHandler<C>): EventBinding<C> {
  return [contract, handler];
}

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

export interface EventConsumerOptions {
  connection: AmqpConnection;
  exchange?: string;
  logger?: Logger;
}

/**
 * Consumes events with manual acks, validation, retries through a TTL queue, a dead-letter queue
 * and deduplication by event id. Every `subscribe` gets its own channel (prefetch is per channel)
 * and re-declares its queues and resumes consuming after every reconnect.
 */
export class EventConsumer {
  private readonly subscriptions = new Set<Subscription>();

  constructor(private readonly options: EventConsumerOptions) {}

  subscribe<const T extends readonly EventContract[]>(options: SubscribeOptions<T>): Subscription {
    const subscription = new Subscription(
      this.options.connection,
      this.options.exchange ?? DEFAULT_EXCHANGE,
      this.options.logger ?? silentLogger,
      options as unknown as SubscribeOptions<readonly EventContract[]>,
      () => this.subscriptions.delete(subscription),
    );
    this.subscriptions.add(subscription);
    return subscription;
  }

  /** Stops every subscription, letting in-flight handlers finish. */
  async close(): Promise<void> {
    await Promise.all([...this.subscriptions].map((s) => s.close()));
  }
}

type Outcome = 'handled' | 'duplicate' | 'busy' | 'retry' | 'dead-lettered' | 'not-acked';

const DEFAULT_CLAIM_LEASE_MS = 120_000;
const DEFAULT_BUSY_RETRY_MS = 2_000;

export class Subscription {
  readonly queue: string;
  private readonly handlers = new Map<string, EventBinding>();
  private readonly maxAttempts: number;
  private readonly retryDelays: readonly number[];
  private readonly prefetch: number;
  private readonly registration: SetupRegistration;
  private readonly signals = new EventEmitter();
  private readonly inFlight = new Set<Promise<void>>();
  /** Same event id delivered twice at once (duplicate publish): second waits for the first. */
  private readonly inFlightByEventId = new Map<string, Promise<unknown>>();
  private channel: ConfirmChannel | undefined;
  private consumerTag: string | undefined;
  private closed = false;

  constructor(
    connection: AmqpConnection,
    private readonly exchange: string,
    private readonly logger: Logger,
    private readonly options: SubscribeOptions<readonly EventContract[]>,
    private readonly onClosed: () => void,
  ) {
    this.queue = options.queue;
    for (const [contract, handler] of options.events) {
      if (this.handlers.has(contract.name))
        throw new Error(`event ${contract.name} bound twice on queue ${this.queue}`);
      this.handlers.set(contract.name, [contract, handler]);
    }
    if (this.handlers.size === 0) throw new Error(`subscription ${this.queue} has no events`);
    this.maxAttempts = Math.max(1, options.maxAttempts ?? 5);
    this.retryDelays = options.retryDelayMs ?? DEFAULT_RETRY_DELAYS_MS;
    this.prefetch = Math.max(1, options.prefetch ?? 10);
    this.signals.setMaxListeners(0);
    this.registration = connection.onConnected(`consumer:${this.queue}`, (model) => this.setup(model));
  }

  /** True while the queue is declared and a consumer is attached (readiness probe material). */
  isConsuming(): boolean {
    return this.consumerTag !== undefined;
  }

  /** Resolves once consuming (bindings exist, so published events will reach the queue). */
  ready(timeoutMs = 30_000): Promise<void> {
    if (this.isConsuming()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.signals.off('consuming', done);
        reject(new Error(`queue ${this.queue} not consuming within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      this.signals.once('consuming', done);
    });
  }

  /** Stops taking messages, waits for in-flight handlers (bounded), then closes the channel. */
  async close(drainTimeoutMs = 10_000): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.registration.dispose();
    const channel = this.channel;
    const tag = this.consumerTag;
    this.consumerTag = undefined;
    if (channel && tag) await channel.cancel(tag).catch(() => undefined);
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled([...this.inFlight]),
      new Promise((resolve) => (timer = setTimeout(resolve, drainTimeoutMs))),
    ]);
    clearTimeout(timer);
    this.channel = undefined;
    // Anything still unacked is requeued by the broker when the channel closes.
    if (channel) await channel.close().catch(() => undefined);
    this.onClosed();
  }

  private async setup(model: ChannelModel): Promise<void> {
    if (this.closed) return;
    // A confirm channel: retry/DLQ copies are confirmed before the original is acked, so a
    // failing message is never lost between the two.
    const channel = await model.createConfirmChannel();
    channel.on('error', (err: Error) =>
      this.logger.warn({ queue: this.queue, err: errorSummary(err) }, 'consumer channel error'),
    );
    channel.on('close', () => {
      if (this.channel !== channel) return;
      this.channel = undefined;
      this.consumerTag = undefined;
      if (!this.closed) this.registration.rerun();
    });
    try {
      await channel.prefetch(this.prefetch);
      await assertConsumerQueues(channel, this.exchange, this.queue, [...this.handlers.keys()]);
      this.channel = channel;
      const { consumerTag } = await channel.consume(
        this.queue,
        (message) => {
          if (message === null) {
            // The broker cancelled us (queue deleted, node failover): reopen and re-declare.
            this.logger.warn({ queue: this.queue }, 'consumer cancelled by the broker; re-subscribing');
            void channel.close().catch(() => undefined);
            return;
          }
          this.track(this.handleDelivery(channel, message));
        },
        { noAck: false },
      );
      this.consumerTag = consumerTag;
    } catch (err) {
      if (this.channel === channel) this.channel = undefined;
      await channel.close().catch(() => undefined);
      throw err;
    }
    if (this.closed) {
      await channel.close().catch(() => undefined);
      return;
    }
    this.logger.info({ queue: this.queue, events: [...this.handlers.keys()] }, 'consuming');
    this.signals.emit('consuming');
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  private async handleDelivery(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const attempt = attemptFromHeaders(message.properties.headers);
    const meta: Record<string, unknown> = {
      queue: this.queue,
      messageId: message.properties.messageId,
      routingKey: message.fields.routingKey,
      attempt,
    };
    let outcome: Outcome;
    try {
      outcome = await this.process(channel, message, attempt, meta);
    } catch (err) {
      // Only reachable when the channel went away mid-way (ack/publish impossible). The broker
      // requeues the unacked message and it comes back on the next channel.
      outcome = 'not-acked';
      this.logger.warn(
        { ...meta, err: errorSummary(err) },
        'message left unacked; the broker will redeliver it',
      );
    }
    this.logger.debug({ ...meta, outcome }, 'message done');
  }

  private async process(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    attempt: number,
    meta: Record<string, unknown>,
  ): Promise<Outcome> {
    let raw: unknown;
    try {
      raw = JSON.parse(message.content.toString('utf8'));
    } catch {
      return this.deadLetter(channel, message, 'invalid JSON', meta);
    }
    const parsedEnvelope = eventEnvelopeSchema.safeParse(raw);
    if (!parsedEnvelope.success) {
      return this.deadLetter(
        channel,
        message,
        `invalid envelope: ${describeIssues(parsedEnvelope.error).join('; ')}`,
        meta,
      );
    }
    const envelope = parsedEnvelope.data;
    meta.eventId = envelope.id;
    meta.event = envelope.name;
    const binding = this.handlers.get(envelope.name);
    if (!binding) return this.deadLetter(channel, message, `no handler for event ${envelope.name}`, meta);
    const [contract, handler] = binding;
    const parsedData = contract.schema.safeParse(envelope.data);
    if (!parsedData.success) {
      return this.deadLetter(
        channel,
        message,
        `invalid data: ${describeIssues(parsedData.error, 'data').join('; ')}`,
        meta,
      );
    }

    // Serialise concurrent deliveries of the same event id within this process.
    const key = processedEventKey(this.queue, envelope.id);
    let previous = this.inFlightByEventId.get(key);
    while (previous) {
      await previous.catch(() => undefined);
      previous = this.inFlightByEventId.get(key);
    }
    const run = this.runHandler(
      channel,
      message,
      attempt,
      meta,
      key,
      { ...envelope, data: parsedData.data },
      handler,
    );
    this.inFlightByEventId.set(key, run);
    try {
      return await run;
    } finally {
      this.inFlightByEventId.delete(key);
    }
  }

  private async runHandler(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    attempt: number,
    meta: Record<string, unknown>,
    key: string,
    envelope: EventEnvelope,
    handler: EventHandler<EventContract>,
  ): Promise<Outcome> {
    const store = this.options.idempotency;
    let status: 'new' | 'claimed' | 'processed' | 'busy';
    try {
      if (store.claim) {
        status = await store.claim(key, this.options.claimLeaseMs ?? DEFAULT_CLAIM_LEASE_MS);
      } else {
        status = (await store.has(key)) ? 'processed' : 'new';
      }
    } catch (err) {
      return this.retryOrDeadLetter(channel, message, attempt, err, meta);
    }
    if (status === 'processed') {
      channel.ack(message);
      this.logger.debug(meta, 'duplicate event skipped');
      return 'duplicate';
    }
    if (status === 'busy') {
      // Another replica is handling a copy right now: look again later, without spending an attempt.
      // If it succeeds this copy is then a duplicate; if it dies, its claim expires and we take over.
      await this.republishLater(
        channel,
        message,
        attempt,
        this.options.busyRetryMs ?? DEFAULT_BUSY_RETRY_MS,
        {
          'x-last-error': 'claimed by another consumer',
        },
      );
      this.logger.debug(meta, 'event claimed by another consumer; looking again later');
      return 'busy';
    }
    const handleAndRecord = async () => {
      await handler(envelope, { queue: this.queue, attempt, redelivered: message.fields.redelivered });
      // Recorded before the ack: if we die in between, the redelivery is recognised and skipped.
      await store.markProcessed(key);
    };
    try {
      await (this.options.lane ? this.options.lane.run(handleAndRecord) : handleAndRecord());
    } catch (err) {
      if (status === 'claimed') await store.release?.(key).catch(() => undefined);
      // Handler errors and idempotency-store outages alike: try again later, DLQ when exhausted.
      return this.retryOrDeadLetter(channel, message, attempt, err, meta);
    }
    channel.ack(message);
    this.logger.debug(meta, 'event handled');
    return 'handled';
  }

  /** Puts a copy into `<queue>.retry` with the given delay (confirmed), then acks the original. */
  private async republishLater(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    attempt: number,
    delayMs: number,
    headers: Record<string, unknown>,
  ): Promise<void> {
    await publishConfirmed(channel, retryQueueName(this.queue), message.content, {
      ...copyProperties(message),
      headers: { ...cleanHeaders(message), 'x-attempt': attempt, ...headers },
      // Per-message TTL: when it expires the retry queue dead-letters it back into the main queue.
      expiration: String(delayMs),
    });
    channel.ack(message);
  }

  private async retryOrDeadLetter(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    attempt: number,
    err: unknown,
    meta: Record<string, unknown>,
  ): Promise<Outcome> {
    const summary = errorSummary(err);
    if (attempt >= this.maxAttempts) {
      return this.deadLetter(
        channel,
        message,
        `handler failed ${attempt} times: ${summary.name}: ${summary.message}`,
        meta,
        {
          'x-attempt': attempt,
        },
      );
    }
    const delayMs = retryDelayFor(attempt, this.retryDelays);
    await this.republishLater(channel, message, attempt + 1, delayMs, {
      'x-last-error': truncate(`${summary.name}: ${summary.message}`, 500),
    });
    this.logger.warn({ ...meta, retryInMs: delayMs, err: summary }, 'handler failed; retry scheduled');
    return 'retry';
  }

  private async deadLetter(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    reason: string,
    meta: Record<string, unknown>,
    extraHeaders: Record<string, unknown> = {},
  ): Promise<Outcome> {
    await publishConfirmed(channel, deadLetterQueueName(this.queue), message.content, {
      ...copyProperties(message),
      headers: {
        ...cleanHeaders(message),
        ...extraHeaders,
        'x-error': truncate(reason, 1000),
        'x-dead-lettered-at': new Date().toISOString(),
        'x-original-exchange': message.fields.exchange,
        'x-original-routing-key': message.fields.routingKey,
      },
    });
    channel.ack(message);
    // The reason holds paths and error messages, not the body; the body stays in the DLQ only.
    this.logger.error({ ...meta, reason: truncate(reason, 300) }, 'message moved to the dead-letter queue');
    return 'dead-lettered';
  }
}

/** Sends via the default exchange (routing key = queue name) and waits for the broker's confirm. */
function publishConfirmed(
  channel: ConfirmChannel,
  queue: string,
  content: Buffer,
  options: Options.Publish,
): Promise<void> {
  return new Promise((resolve, reject) => {
    try {
      channel.sendToQueue(queue, content, options, (err: unknown) =>
        err ? reject(err instanceof Error ? err : new Error(`publish to ${queue} nacked`)) : resolve(),
      );
    } catch (err) {
      reject(err);
    }
  });
}

/** Properties worth keeping on a retry/DLQ copy; expiration is deliberately not carried over. */
function copyProperties(message: ConsumeMessage): Options.Publish {
  const p = message.properties;
  const copy: Options.Publish = { persistent: true };
  if (p.contentType) copy.contentType = p.contentType;
  if (p.contentEncoding) copy.contentEncoding = p.contentEncoding;
  if (p.messageId) copy.messageId = p.messageId;
  if (p.correlationId) copy.correlationId = p.correlationId;
  if (p.type) copy.type = p.type;
  if (p.timestamp) copy.timestamp = p.timestamp;
  if (p.appId) copy.appId = p.appId;
  return copy;
}

/**
 * Drops RabbitMQ's dead-lettering bookkeeping (`x-death`, `x-first-death-*`): attempts are counted
 * by our own `x-attempt`, and carrying x-death into a new publish only confuses the broker's.
 */
function cleanHeaders(message: ConsumeMessage): Record<string, unknown> {
  const headers: Record<string, unknown> = { ...(message.properties.headers ?? {}) };
  for (const name of Object.keys(headers)) {
    if (name === 'x-death' || name.startsWith('x-first-death') || name.startsWith('x-last-death'))
      delete headers[name];
  }
  return headers;
}
