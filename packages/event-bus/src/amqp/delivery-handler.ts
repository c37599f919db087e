import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { eventEnvelopeSchema, type EventContract, type EventEnvelope } from '@crm/contracts';
import { describeIssues } from './event-envelope';
import { errorSummary, truncate, type Logger } from './logger';
import { cleanHeaders, copyProperties, publishConfirmed } from './message-copies';
import { processedEventKey } from './processed-events';
import { attemptFromHeaders, DEFAULT_RETRY_DELAYS_MS, retryDelayFor } from './retry-schedule';
import type { EventBinding, EventHandler, SubscribeOptions } from './subscribe-options';
import { deadLetterQueueName, retryQueueName } from './topology';

type Outcome = 'handled' | 'duplicate' | 'busy' | 'retry' | 'dead-lettered' | 'not-acked';

const DEFAULT_CLAIM_LEASE_MS = 120_000;
const DEFAULT_BUSY_RETRY_MS = 2_000;

/**
 * What happens to one message of a subscription: parse and validate it, claim or deduplicate its
 * event id, run the handler and record it, then ack — or put a confirmed copy into `<queue>.retry`
 * or `<queue>.dlq` first and ack the original, so nothing is lost in between.
 *
 * The channel is the one the message arrived on: an ack or copy after that channel died fails, the
 * message stays unacked and the broker redelivers it on the next channel (never an ack with a stale
 * delivery tag on a new channel).
 */
export class DeliveryHandler {
  readonly queue: string;
  private readonly handlers = new Map<string, EventBinding>();
  private readonly maxAttempts: number;
  private readonly retryDelays: readonly number[];
  /** Same event id delivered twice at once (duplicate publish): second waits for the first. */
  private readonly inFlightByEventId = new Map<string, Promise<unknown>>();

  constructor(
    private readonly options: SubscribeOptions<readonly EventContract[]>,
    private readonly logger: Logger,
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
  }

  /** The event names handled, i.e. the routing keys the queue is bound with. */
  get eventNames(): string[] {
    return [...this.handlers.keys()];
  }

  /** Never rejects: every outcome, including "could not ack", is logged here. */
  async handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
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
      ...(this.options.deadLetterTtlMs ? { expiration: String(this.options.deadLetterTtlMs) } : {}),
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
