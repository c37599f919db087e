import { EventEmitter } from 'node:events';
import type { ChannelModel, ConfirmChannel } from 'amqplib';
import type { EventContract } from '@crm/contracts';
import type { AmqpConnection, SetupRegistration } from './amqp-connection';
import { DeliveryHandler } from './delivery-handler';
import { errorSummary, type Logger } from './logger';
import type { EventBusMetrics } from './metrics';
import type { SubscribeOptions } from './subscribe-options';
import {
  assertConsumerQueues,
  dropOutdatedRetryQueue,
  ensureEventExchange,
  replyCode,
  retryQueueName,
} from './topology';

/**
 * One consumer queue: its own confirm channel (prefetch is per channel), the queue trio declared
 * and bound, and `consume` — all done again after every reconnect, and after the broker closes
 * the channel while the connection lives on. What happens to each message is DeliveryHandler's job.
 */
export class Subscription {
  readonly queue: string;
  private readonly deliveries: DeliveryHandler;
  private readonly prefetch: number;
  private readonly registration: SetupRegistration;
  private readonly signals = new EventEmitter();
  private readonly inFlight = new Set<Promise<void>>();
  private channel: ConfirmChannel | undefined;
  private consumerTag: string | undefined;
  private closed = false;

  constructor(
    connection: AmqpConnection,
    private readonly exchange: string,
    private readonly logger: Logger,
    options: SubscribeOptions<readonly EventContract[]>,
    private readonly onClosed: () => void,
    metrics?: EventBusMetrics,
  ) {
    this.queue = options.queue;
    this.deliveries = new DeliveryHandler(options, logger, connection.user, metrics);
    this.prefetch = Math.max(1, options.prefetch ?? 10);
    this.signals.setMaxListeners(0);
    this.registration = connection.onConnected(`consumer:${this.queue}`, (model) => this.setup(model));
  }

  /** Messages dropped because they did not come from a publisher of their event (since start). */
  refusedCount(): number {
    return this.deliveries.refused;
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
      await ensureEventExchange(model, channel, this.exchange);
      await assertConsumerQueues(channel, this.exchange, this.queue, this.deliveries.eventNames).catch(
        async (err: unknown) => {
          if (replyCode(err) === 406 && String((err as Error).message).includes(retryQueueName(this.queue))) {
            // Declared by an older version with other arguments: replaced once empty (topology.ts).
            const dropped = await dropOutdatedRetryQueue(model, this.queue);
            this.logger.warn(
              { queue: this.queue, dropped },
              dropped
                ? 'outdated retry queue deleted; declaring it again'
                : 'outdated retry queue still holds messages; trying again once it has emptied',
            );
          }
          throw err;
        },
      );
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
          this.track(this.deliveries.handle(channel, message));
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
    this.logger.info({ queue: this.queue, events: this.deliveries.eventNames }, 'consuming');
    this.signals.emit('consuming');
  }

  private track(work: Promise<void>): void {
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }
}
