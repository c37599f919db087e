import type { ConfirmChannel, ConsumeMessage } from 'amqplib';
import { eventEnvelopeSchema, type EventContract, type EventEnvelope } from '@crm/contracts';
import { context, trace } from '@opentelemetry/api';
import {
  contextFromTraceparent,
  inSpan,
  markFailed,
  SpanKind,
  traceHeaders,
  TRACEPARENT_HEADER,
} from '../trace-context';
import { describeIssues } from './event-envelope';
import { errorSummary, truncate, type Logger } from './logger';
import { cleanHeaders, copyProperties, publishConfirmed } from './message-copies';
import { processedEventKey } from './processed-events';
import { attemptFromHeaders, DEFAULT_RETRY_DELAYS_MS, retryDelayFor } from './retry-schedule';
import type { EventBinding, EventHandler, SubscribeOptions } from './subscribe-options';
import { COPY_ROUTES, copiesExchangeName, deadLetterQueueName } from './topology';
import { noEventBusMetrics, type DeliveryOutcome, type EventBusMetrics } from './metrics';

type Outcome = DeliveryOutcome;

/** On a retry or dead-letter copy: the broker user who published the original (its `user_id`). */
export const PUBLISHED_BY_HEADER = 'x-published-by';

const DEFAULT_CLAIM_LEASE_MS = 120_000;
const DEFAULT_BUSY_RETRY_MS = 2_000;

/**
 * What happens to one message of a subscription: parse and validate it, claim or deduplicate its
 * event id, run the handler and record it, then ack — or put a confirmed copy into `<queue>.retry`
 * or `<queue>.dlq` first and ack the original, so nothing is lost in between.
 *
 * Every event is accepted only from the publishers its contract names: the message's `user_id`,
 * which RabbitMQ validates against the sending connection's user, or — on a copy that came back
 * through the queue's own copies exchange (only this consumer may write to it) or the default
 * exchange (only the broker's operators may) — the `x-published-by` header the copy was given. A
 * message from anyone else is logged (names and ids only) and dropped: acked, never retried.
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
  private readonly copies: string;
  /** Same event id delivered twice at once (duplicate publish): second waits for the first. */
  private readonly inFlightByEventId = new Map<string, Promise<unknown>>();
  /** Messages dropped because they did not come from a publisher of their event. */
  refused = 0;

  constructor(
    private readonly options: SubscribeOptions<readonly EventContract[]>,
    private readonly logger: Logger,
    /** This consumer's broker user: each contract must list it among its consumers. */
    self: string,
    private readonly metrics: EventBusMetrics = noEventBusMetrics,
  ) {
    this.queue = options.queue;
    this.copies = copiesExchangeName(this.queue);
    for (const [contract, handler] of options.events) {
      if (this.handlers.has(contract.name))
        throw new Error(`event ${contract.name} bound twice on queue ${this.queue}`);
      // The broker would refuse the binding (topic permissions derive from the same list): say so now.
      if (!contract.consumers.includes(self))
        throw new Error(
          `${self} subscribes to ${contract.name} on ${this.queue}, but the event's contract does not list it as a consumer`,
        );
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

  /**
   * Who published the message, as far as it can be trusted: see the class comment. A broker user
   * name, never personal data, so it may be logged.
   */
  publisherOf(message: ConsumeMessage): string | undefined {
    const { exchange } = message.fields;
    if (exchange === this.copies || exchange === '') {
      const header: unknown = message.properties.headers?.[PUBLISHED_BY_HEADER];
      if (typeof header === 'string') return header;
      return Buffer.isBuffer(header) ? header.toString('utf8') : undefined;
    }
    const userId: unknown = message.properties.userId;
    return typeof userId === 'string' && userId !== '' ? userId : undefined;
  }

  /** Never rejects: every outcome, including "could not ack", is logged here. */
  async handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const attempt = attemptFromHeaders(message.properties.headers);
    const meta: Record<string, unknown> = {
      queue: this.queue,
      messageId: message.properties.messageId,
      routingKey: message.fields.routingKey,
      publishedBy: this.publisherOf(message),
      attempt,
    };
    // A consumer span, child of the publish span whose traceparent the message carries (or of the
    // span already active, when an instrumentation of amqplib made one for this delivery).
    const parent = trace.getSpan(context.active())
      ? context.active()
      : contextFromTraceparent(message.properties.headers?.[TRACEPARENT_HEADER], context.active());
    // The event's name: a retry copy comes back with another routing key, but keeps the type.
    const eventName = message.properties.type ? String(message.properties.type) : message.fields.routingKey;
    await inSpan(
      `process ${eventName}`,
      {
        kind: SpanKind.CONSUMER,
        parent,
        attributes: {
          'messaging.system': 'rabbitmq',
          'messaging.operation.type': 'process',
          'messaging.destination.name': this.queue,
          'messaging.rabbitmq.destination.routing_key': message.fields.routingKey,
          'messaging.message.id': String(message.properties.messageId ?? ''),
          'crm.delivery.attempt': attempt,
        },
      },
      async (span) => {
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
        span.setAttribute('crm.delivery.outcome', outcome);
        this.logger.debug({ ...meta, outcome }, 'message done');
        // Metrics: the event's name once read (a retried copy's own routing key is the copy route's).
        this.metrics.delivered(String(meta.event ?? meta.routingKey), this.queue, outcome);
      },
    );
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
    const publishedBy = meta.publishedBy as string | undefined;
    if (publishedBy === undefined || !contract.publishers.includes(publishedBy)) {
      return this.refuse(channel, message, contract, meta);
    }
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
    await publishConfirmed(channel, this.copies, COPY_ROUTES.retry, message.content, {
      ...copyProperties(message),
      headers: {
        ...cleanHeaders(message),
        ...this.publishedByHeader(message),
        // The next attempt's span is a child of this one (same trace as the original publish).
        ...traceHeaders(),
        'x-attempt': attempt,
        ...headers,
      },
      // Per-message TTL: when it expires the retry queue dead-letters it back into the main queue.
      expiration: String(delayMs),
    });
    channel.ack(message);
  }

  /** The copy says who published the original (absent when nobody trustworthy did). */
  private publishedByHeader(message: ConsumeMessage): Record<string, string> {
    const publisher = this.publisherOf(message);
    return publisher === undefined ? {} : { [PUBLISHED_BY_HEADER]: publisher };
  }

  /**
   * Not from a publisher of this event: a forgery, or a deployable running under another broker
   * user. Dropped (acked, not retried: retrying cannot make it genuine) and logged without its body.
   */
  private refuse(
    channel: ConfirmChannel,
    message: ConsumeMessage,
    contract: EventContract,
    meta: Record<string, unknown>,
  ): Outcome {
    channel.ack(message);
    this.refused += 1;
    this.logger.warn(
      { ...meta, publishers: contract.publishers },
      'message refused: not sent by a publisher of its event; dropped',
    );
    return 'refused';
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
    const span = trace.getActiveSpan();
    span?.addEvent('retry scheduled', {
      'crm.delivery.attempt': attempt,
      'crm.delivery.retry_in_ms': delayMs,
      'exception.type': summary.name,
      'exception.message': summary.message,
    });
    if (span) markFailed(span, err, summary.message);
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
    await publishConfirmed(channel, this.copies, COPY_ROUTES.deadLetter, message.content, {
      ...copyProperties(message),
      ...(this.options.deadLetterTtlMs ? { expiration: String(this.options.deadLetterTtlMs) } : {}),
      headers: {
        ...cleanHeaders(message),
        ...this.publishedByHeader(message),
        ...traceHeaders(),
        ...extraHeaders,
        'x-error': truncate(reason, 1000),
        'x-dead-lettered-at': new Date().toISOString(),
        'x-original-exchange': message.fields.exchange,
        'x-original-routing-key': message.fields.routingKey,
      },
    });
    channel.ack(message);
    const span = trace.getActiveSpan();
    span?.addEvent('dead-lettered', {
      'crm.delivery.queue': deadLetterQueueName(this.queue),
      'crm.delivery.reason': truncate(reason, 300),
    });
    if (span) markFailed(span, 'dead-lettered', truncate(reason, 300));
    // The reason holds paths and error messages, not the body; the body stays in the DLQ only.
    this.logger.error({ ...meta, reason: truncate(reason, 300) }, 'message moved to the dead-letter queue');
    return 'dead-lettered';
  }
}
