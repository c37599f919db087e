import { EventEmitter } from 'node:events';
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import type { z } from 'zod';
import type { EventContract, EventEnvelope } from '@crm/contracts';
import type { AmqpConnection, SetupRegistration } from './amqp-connection';
import { assertEnvelope, createEnvelope, type ContractData } from './event-envelope';
import { traceHeaders } from '../trace-context';
import { errorSummary, silentLogger, type Logger } from './logger';
import type { EventBusMetrics } from './metrics';
import { DEFAULT_EXCHANGE, ensureEventExchange } from './topology';

export interface EventPublisherOptions {
  connection: AmqpConnection;
  /** Topic exchange; default `crm.events`. Tests pass their own to stay isolated. */
  exchange?: string;
  logger?: Logger;
  /** How long a publish may wait for the broker (reconnect + confirm). Default 30 s. */
  publishTimeoutMs?: number;
  /** Counts confirmed publishes by routing key (metrics.ts). */
  metrics?: EventBusMetrics;
}

export interface PublishOptions {
  correlationId: string;
  /** Reuse an id to make a retried publish deduplicate at consumers. */
  id?: string;
  timeoutMs?: number;
}

export class PublishTimeoutError extends Error {
  override readonly name = 'PublishTimeoutError';
}

export class PublisherClosedError extends Error {
  override readonly name = 'PublisherClosedError';
}

/** Minimal surface the outbox relay needs; lets relay tests use a fake. */
export interface EnvelopePublisher {
  publishEnvelope(envelope: EventEnvelope, options?: { timeoutMs?: number }): Promise<void>;
}

/**
 * Publishes events with publisher confirms: a publish resolves only once the broker has taken
 * responsibility for the (persistent) message.
 *
 * Every message carries `user_id` = the connection's broker user, which the broker validates.
 *
 * Guarantee: at-least-once. If the connection drops between sending and the confirm, the message
 * is sent again on the next connection, so the broker may hold it twice — consumers deduplicate by
 * envelope id. For events that must survive the *publisher process* dying, write them to the
 * outbox instead (see outbox.ts) and let the relay call this.
 */
export class EventPublisher implements EnvelopePublisher {
  private readonly exchange: string;
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly registration: SetupRegistration;
  private readonly signals = new EventEmitter();
  private channel: ConfirmChannel | undefined;
  private closed = false;

  constructor(private readonly options: EventPublisherOptions) {
    this.exchange = options.exchange ?? DEFAULT_EXCHANGE;
    this.logger = options.logger ?? silentLogger;
    this.timeoutMs = options.publishTimeoutMs ?? 30_000;
    this.signals.setMaxListeners(0);
    this.registration = options.connection.onConnected('event-publisher', (model) => this.setup(model));
  }

  /** True when a publish would go out immediately (connection and confirm channel up). */
  isReady(): boolean {
    return this.channel !== undefined;
  }

  /** Validates `data` against the contract, wraps it in an envelope and publishes it. */
  async publish<C extends EventContract>(
    contract: C,
    data: z.input<C['schema']>,
    options: PublishOptions,
  ): Promise<EventEnvelope<ContractData<C>>> {
    const envelope = createEnvelope(contract, data, options.correlationId, { id: options.id });
    await this.publishEnvelope(envelope, { timeoutMs: options.timeoutMs });
    return envelope;
  }

  /**
   * Publishes a ready-made envelope (the outbox relay's entry point). Waits for a reconnect while
   * the broker is away and re-sends if a confirm is lost with its channel, until `timeoutMs`.
   */
  async publishEnvelope(envelope: EventEnvelope, options: { timeoutMs?: number } = {}): Promise<void> {
    assertEnvelope(envelope);
    const body = Buffer.from(JSON.stringify(envelope));
    const deadline = Date.now() + (options.timeoutMs ?? this.timeoutMs);
    let lastError: unknown;
    for (let attempt = 1; ; attempt++) {
      const channel = await this.waitForChannel(deadline, envelope, lastError);
      try {
        await this.sendAndConfirm(channel, envelope, body, deadline);
        this.options.metrics?.published(envelope.name);
        if (attempt > 1)
          this.logger.info(
            { eventId: envelope.id, event: envelope.name, attempt },
            'event published after retry',
          );
        return;
      } catch (err) {
        lastError = err;
        if (err instanceof PublishTimeoutError) throw err;
        if (this.closed) throw new PublisherClosedError('publisher closed before the broker confirmed');
        this.logger.debug(
          { eventId: envelope.id, event: envelope.name, attempt, err: errorSummary(err) },
          'publish not confirmed; retrying',
        );
        // A nack on a healthy channel (broker-side trouble) would otherwise spin.
        if (this.channel === channel) await delay(Math.min(1_000, 50 * 2 ** attempt));
      }
    }
  }

  /** Stops publishing; waits for outstanding confirms so callers see their outcome. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.registration.dispose();
    this.signals.emit('closed');
    const channel = this.channel;
    this.channel = undefined;
    if (channel) {
      await channel.waitForConfirms().catch(() => undefined);
      await channel.close().catch(() => undefined);
    }
  }

  private async setup(model: ChannelModel): Promise<void> {
    if (this.closed) return;
    const channel = await model.createConfirmChannel();
    channel.on('error', (err: Error) =>
      this.logger.warn({ err: errorSummary(err) }, 'publisher channel error'),
    );
    channel.on('close', () => {
      if (this.channel !== channel) return;
      this.channel = undefined;
      // Closed by the broker while the connection lives on (e.g. a channel-level error): reopen.
      if (!this.closed) this.registration.rerun();
    });
    try {
      await ensureEventExchange(model, channel, this.exchange);
    } catch (err) {
      await channel.close().catch(() => undefined);
      throw err;
    }
    const previous = this.channel;
    this.channel = channel;
    if (previous) await previous.close().catch(() => undefined);
    this.signals.emit('ready');
  }

  private sendAndConfirm(
    channel: ConfirmChannel,
    envelope: EventEnvelope,
    body: Buffer,
    deadline: number,
  ): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      // A blocked broker (memory/disk alarm) keeps the channel open but never confirms; bound it.
      // If the confirm still arrives later the event may be published twice, which is allowed.
      const timer = setTimeout(
        () =>
          reject(
            new PublishTimeoutError(
              `event ${envelope.name} ${envelope.id} not confirmed by the broker in time`,
            ),
          ),
        Math.max(0, deadline - Date.now()),
      );
      const settle = (err?: unknown): void => {
        clearTimeout(timer);
        if (err) reject(err instanceof Error ? err : new Error(`publish nacked: ${String(err)}`));
        else resolve();
      };
      try {
        channel.publish(
          this.exchange,
          envelope.name,
          body,
          {
            persistent: true, // deliveryMode 2: survives a broker restart in a durable queue
            contentType: 'application/json',
            messageId: envelope.id,
            correlationId: envelope.correlationId,
            type: envelope.name,
            timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
            // Who sent it: RabbitMQ refuses a user_id other than the connection's user, so consumers
            // can trust it (delivery-handler.ts checks it against the contract's publishers).
            userId: this.options.connection.user,
            // W3C trace context of the active span (the relay's publish span): consumers continue it.
            headers: traceHeaders(),
          },
          (err: unknown) => settle(err),
        );
      } catch (err) {
        // amqplib throws synchronously when the channel is already closed.
        settle(err);
      }
    });
  }

  private async waitForChannel(
    deadline: number,
    envelope: EventEnvelope,
    lastError: unknown,
  ): Promise<ConfirmChannel> {
    for (;;) {
      if (this.closed) throw new PublisherClosedError('publisher is closed');
      if (this.channel) return this.channel;
      const remaining = deadline - Date.now();
      if (remaining <= 0) {
        this.logger.warn(
          { eventId: envelope.id, event: envelope.name },
          'publish timed out waiting for the broker',
        );
        throw new PublishTimeoutError(
          `event ${envelope.name} ${envelope.id} not confirmed by the broker in time` +
            (lastError ? ` (last error: ${errorSummary(lastError).message})` : ''),
        );
      }
      await new Promise<void>((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          this.signals.off('ready', done);
          this.signals.off('closed', done);
          resolve();
        };
        const timer = setTimeout(done, remaining);
        this.signals.on('ready', done);
        this.signals.on('closed', done);
      });
    }
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
