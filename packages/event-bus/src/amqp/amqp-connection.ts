import { EventEmitter } from 'node:events';
import amqp, { type ChannelModel, type RecoveringChannelModel } from 'amqplib';
import { ConnectionSetups, type ConnectionSetup, type SetupRegistration } from './connection-setups';
import { errorSummary, silentLogger, type Logger } from './logger';

export interface AmqpConnectionOptions {
  /** e.g. AMQP_URL. Never logged: it carries the password. */
  url: string;
  logger?: Logger;
  /** Shown in the RabbitMQ management UI, to tell services apart. */
  connectionName?: string;
  /** Heartbeat so a silently dead peer (no TCP reset) is noticed in ~2 intervals. Default 10 s. */
  heartbeatSeconds?: number;
  /** Reconnect backoff; defaults 250 ms doubling up to 15 s, ±20 % jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** TCP connect timeout per attempt. Default 10 s. */
  connectTimeoutMs?: number;
}

export type { ConnectionSetup, SetupRegistration } from './connection-setups';

export class ConnectionClosedError extends Error {
  override readonly name = 'ConnectionClosedError';
}

export class ConnectionTimeoutError extends Error {
  override readonly name = 'ConnectionTimeoutError';
}

/**
 * One AMQP connection per process, kept alive for the process's lifetime.
 *
 * Reconnecting is amqplib's own opt-in recovery (`connect(url, { recovery })`, amqplib >= 2.1):
 * capped exponential backoff with jitter, for ever, until close(). On every new connection the
 * components' setups run again (connection-setups.ts): the publisher's confirm channel, each
 * subscription's queues and `consume`. Components never hold on to a channel across reconnects.
 * Why not amqp-connection-manager: see README.md, "Reconnecting".
 */
export class AmqpConnection {
  /**
   * The broker user of the URL: what the publisher stamps on every message (`user_id`, validated by
   * RabbitMQ) and the name the consumer's contracts must list (see @crm/contracts EventContract).
   */
  readonly user: string;
  private readonly logger: Logger;
  private readonly url: string;
  private readonly setups: ConnectionSetups;
  private readonly events = new EventEmitter();
  private recovering: Promise<RecoveringChannelModel | undefined> | undefined;
  private model: ChannelModel | undefined;
  private closed = false;
  /** Set when the connection is lost; logs "restored" once and keeps per-attempt noise at debug. */
  private outageSince: number | undefined;

  constructor(private readonly options: AmqpConnectionOptions) {
    this.logger = options.logger ?? silentLogger;
    this.url = withHeartbeat(options.url, options.heartbeatSeconds ?? 10);
    this.user = brokerUserOf(options.url);
    this.setups = new ConnectionSetups(() => this.model, this.logger);
    // Many components may wait for the connection at once.
    this.events.setMaxListeners(0);
  }

  /** Starts connecting in the background (idempotent). Failures are retried forever until close(). */
  start(): this {
    if (this.closed) throw new ConnectionClosedError('AMQP connection manager is closed');
    this.recovering ??= this.open();
    return this;
  }

  /** start() and wait for the first connection, e.g. at service start-up. */
  async connect(timeoutMs = 30_000): Promise<void> {
    this.start();
    await this.waitForConnection(timeoutMs);
  }

  /** For readiness probes: true while a live connection exists. */
  isConnected(): boolean {
    return this.model !== undefined;
  }

  /** Resolves with the live connection, waiting up to `timeoutMs` for a (re)connect. */
  waitForConnection(timeoutMs: number): Promise<ChannelModel> {
    if (this.closed) return Promise.reject(new ConnectionClosedError('AMQP connection manager is closed'));
    if (this.model) return Promise.resolve(this.model);
    return new Promise((resolve, reject) => {
      const onConnected = (model: ChannelModel): void => {
        cleanup();
        resolve(model);
      };
      const onClosed = (): void => {
        cleanup();
        reject(new ConnectionClosedError('AMQP connection manager is closed'));
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new ConnectionTimeoutError(`no AMQP connection within ${timeoutMs} ms`));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.events.off('connected', onConnected);
        this.events.off('closed', onClosed);
      };
      this.events.on('connected', onConnected);
      this.events.on('closed', onClosed);
    });
  }

  /**
   * Registers a setup that runs now (if connected) and after every reconnect. A failing setup is
   * retried with backoff on the same connection.
   */
  onConnected(name: string, setup: ConnectionSetup): SetupRegistration {
    return this.setups.register(name, setup);
  }

  /** Graceful shutdown: stop reconnecting and close the connection (and so every channel). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.setups.clear();
    this.events.emit('closed');
    this.model = undefined;
    const recovering = await this.recovering;
    // Cancels a scheduled or in-flight attempt too.
    await recovering?.close().catch((err: unknown) => {
      this.logger.debug({ err: errorSummary(err) }, 'AMQP connection close failed');
    });
  }

  private async open(): Promise<RecoveringChannelModel | undefined> {
    try {
      const recovering = await amqp.connect(this.url, {
        timeout: this.options.connectTimeoutMs ?? 10_000,
        clientProperties: { connection_name: this.options.connectionName ?? `crm-event-bus:${process.pid}` },
        recovery: {
          // Resolve at once, before the first attempt, so the listeners below see every event.
          waitForConnect: false,
          initialDelay: this.options.initialDelayMs ?? 250,
          maxDelay: this.options.maxDelayMs ?? 15_000,
          factor: 2,
          jitter: 0.2,
          maxRetries: Infinity,
          setup: ensureAlive,
        },
      });
      this.listen(recovering);
      return recovering;
    } catch (err) {
      // amqplib reports failed attempts through events; this only keeps an unexpected throw from
      // becoming an unhandled rejection.
      this.logger.error({ err: errorSummary(err) }, 'AMQP connection could not be set up');
      return undefined;
    }
  }

  private listen(recovering: RecoveringChannelModel): void {
    recovering.on('connect', (model) => this.onConnect(model));
    recovering.on('disconnect', (err) => {
      this.model = undefined;
      if (this.closed) return;
      this.outageSince = Date.now();
      this.logger.warn({ err: errorSummary(err) }, 'AMQP connection lost; reconnecting');
    });
    recovering.on('reconnect-scheduled', ({ attempt, delay, error }) => {
      if (this.outageSince === undefined) {
        // The very first connect failed: this is an outage too, log it once.
        this.outageSince = Date.now();
        this.logger.warn({ err: errorSummary(error) }, 'AMQP broker unreachable; retrying in the background');
      }
      this.logger.debug({ attempt, delayMs: delay, err: errorSummary(error) }, 'AMQP reconnect scheduled');
    });
    // amqplib emits 'error' before 'close' for connection errors; recovery happens on 'close', and
    // an 'error' event without a listener would crash the process.
    recovering.on('error', (err) => this.logger.debug({ err: errorSummary(err) }, 'AMQP connection error'));
    recovering.on('blocked', (reason) =>
      this.logger.warn({ reason }, 'AMQP connection blocked by the broker'),
    );
    recovering.on('unblocked', () => this.logger.info({}, 'AMQP connection unblocked'));
  }

  private onConnect(model: ChannelModel): void {
    if (this.closed) return;
    this.model = model;
    if (this.outageSince !== undefined) {
      this.logger.info({ downForMs: Date.now() - this.outageSince }, 'AMQP connection restored');
      this.outageSince = undefined;
    } else {
      this.logger.info({}, 'AMQP connected');
    }
    this.events.emit('connected', model);
    this.setups.runAll();
  }
}

/**
 * amqplib's recovery `setup` hook, run on each new connection before it counts as connected. The
 * broker can close a connection in the very frames that opened it (seen during `rabbitmqctl
 * stop_app`); amqplib then emits 'close' before anyone listens, and the dead connection would look
 * alive for ever. Opening a channel fails on such a connection, and the 'close' listener catches a
 * close that arrives together with the channel's replies, before recovery attaches its own; either
 * way the attempt fails and recovery schedules the next one.
 */
export async function ensureAlive(model: ChannelModel): Promise<void> {
  let lost = false;
  const onClose = (): void => {
    lost = true;
  };
  model.once('close', onClose);
  try {
    const probe = await model.createChannel();
    await probe.close();
  } finally {
    model.off('close', onClose);
  }
  if (lost) throw new Error('Connection closed while opening');
}

/** The user an AMQP URL connects as (amqplib's default, `guest`, when it names none). */
export function brokerUserOf(url: string): string {
  try {
    return decodeURIComponent(new URL(url).username) || 'guest';
  } catch {
    return 'guest';
  }
}

/** Adds `heartbeat` to the URL unless the operator set one explicitly. */
function withHeartbeat(url: string, seconds: number): string {
  try {
    const parsed = new URL(url);
    if (!parsed.searchParams.has('heartbeat')) parsed.searchParams.set('heartbeat', String(seconds));
    return parsed.toString();
  } catch {
    return url; // let amqplib report the malformed URL on connect
  }
}
