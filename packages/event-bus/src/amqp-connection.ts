import { EventEmitter } from 'node:events';
import amqp, { type ChannelModel } from 'amqplib';
import { errorSummary, silentLogger, type Logger } from './logger';
import { backoffDelay } from './retry-schedule';

export interface AmqpConnectionOptions {
  /** e.g. AMQP_URL. Never logged: it carries the password. */
  url: string;
  logger?: Logger;
  /** Shown in the RabbitMQ management UI, to tell services apart. */
  connectionName?: string;
  /** Heartbeat so a silently dead peer (no TCP reset) is noticed in ~2 intervals. Default 10 s. */
  heartbeatSeconds?: number;
  /** Reconnect backoff; defaults 250 ms doubling up to 15 s. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** TCP connect timeout per attempt. Default 10 s. */
  connectTimeoutMs?: number;
}

/** Declares topology / opens channels on a fresh connection. Runs after every (re)connect. */
export type ConnectionSetup = (connection: ChannelModel) => Promise<void>;

export interface SetupRegistration {
  /**
   * Runs the setup again on the current connection, e.g. after the component's channel was
   * closed by the broker while the connection stayed up. No-op while disconnected (the next
   * connect runs it anyway).
   */
  rerun(): void;
  /** Stops running this setup on future connections. */
  dispose(): void;
}

export class ConnectionClosedError extends Error {
  override readonly name = 'ConnectionClosedError';
}

export class ConnectionTimeoutError extends Error {
  override readonly name = 'ConnectionTimeoutError';
}

interface SetupEntry {
  name: string;
  setup: ConnectionSetup;
  running: boolean;
  /** Set when a rerun is requested while a run is in progress; the run loops once more. */
  again: boolean;
  retryTimer?: NodeJS.Timeout;
  failures: number;
}

/**
 * One AMQP connection per process, kept alive for the process's lifetime.
 *
 * amqplib connections do not survive a broker restart and their channels die with them, so this
 * class reconnects with capped exponential backoff and then re-runs every registered setup
 * (publisher confirm channel, consumer queues and `consume`) on the new connection. Components
 * therefore never hold on to a channel across reconnects; they re-create it in their setup.
 */
export class AmqpConnection {
  private readonly logger: Logger;
  private readonly url: string;
  private readonly setups = new Set<SetupEntry>();
  private readonly events = new EventEmitter();
  private model: ChannelModel | undefined;
  private connecting = false;
  private started = false;
  private closed = false;
  private reconnectAttempt = 0;
  private reconnectTimer: NodeJS.Timeout | undefined;
  /** Set when the connection is lost; logs "restored" once and keeps per-attempt noise at debug. */
  private outageSince: number | undefined;

  constructor(private readonly options: AmqpConnectionOptions) {
    this.logger = options.logger ?? silentLogger;
    this.url = withHeartbeat(options.url, options.heartbeatSeconds ?? 10);
    // Many components may wait for the connection at once.
    this.events.setMaxListeners(0);
  }

  /** Starts connecting in the background (idempotent). Failures are retried forever until close(). */
  start(): this {
    if (this.closed) throw new ConnectionClosedError('AMQP connection manager is closed');
    if (!this.started) {
      this.started = true;
      void this.connectOnce();
    }
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
   * retried with backoff on the same connection, so one misbehaving component neither blocks
   * others nor tears the shared connection down.
   */
  onConnected(name: string, setup: ConnectionSetup): SetupRegistration {
    const entry: SetupEntry = { name, setup, running: false, again: false, failures: 0 };
    this.setups.add(entry);
    if (this.model) this.runSetup(entry);
    return {
      rerun: () => {
        // Deferred one tick: when a connection dies, amqplib closes its channels before it emits
        // the connection's own 'close', so an immediate rerun would try the dying connection.
        setImmediate(() => {
          if (this.setups.has(entry) && this.model) this.runSetup(entry);
        });
      },
      dispose: () => {
        this.setups.delete(entry);
        if (entry.retryTimer) clearTimeout(entry.retryTimer);
      },
    };
  }

  /** Graceful shutdown: stop reconnecting and close the connection (and so every channel). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    for (const entry of this.setups) if (entry.retryTimer) clearTimeout(entry.retryTimer);
    this.setups.clear();
    this.events.emit('closed');
    const model = this.model;
    this.model = undefined;
    if (model) {
      try {
        await model.close();
      } catch (err) {
        // Already closing or gone: nothing left to release.
        this.logger.debug({ err: errorSummary(err) }, 'AMQP connection close failed');
      }
    }
  }

  private async connectOnce(): Promise<void> {
    if (this.closed || this.connecting || this.model) return;
    this.connecting = true;
    let model: ChannelModel;
    try {
      model = await amqp.connect(this.url, {
        timeout: this.options.connectTimeoutMs ?? 10_000,
        clientProperties: { connection_name: this.options.connectionName ?? `crm-event-bus:${process.pid}` },
      });
    } catch (err) {
      this.connecting = false;
      this.scheduleReconnect(err);
      return;
    }
    this.connecting = false;
    if (this.closed) {
      await model.close().catch(() => undefined);
      return;
    }

    // amqplib emits 'error' before 'close' for connection errors; an unhandled 'error' event
    // would crash the process, and 'close' is where recovery happens.
    model.on('error', (err: Error) => this.logger.debug({ err: errorSummary(err) }, 'AMQP connection error'));
    model.on('close', (err?: Error) => this.onConnectionLost(model, err));
    model.on('blocked', (reason: string) =>
      this.logger.warn({ reason }, 'AMQP connection blocked by the broker'),
    );
    model.on('unblocked', () => this.logger.info({}, 'AMQP connection unblocked'));

    this.model = model;
    this.reconnectAttempt = 0;
    if (this.outageSince !== undefined) {
      this.logger.info({ downForMs: Date.now() - this.outageSince }, 'AMQP connection restored');
      this.outageSince = undefined;
    } else {
      this.logger.info({}, 'AMQP connected');
    }
    this.events.emit('connected', model);
    for (const entry of this.setups) this.runSetup(entry);
  }

  private onConnectionLost(model: ChannelModel, err: Error | undefined): void {
    if (this.model !== model) return;
    this.model = undefined;
    if (this.closed) return;
    this.outageSince = Date.now();
    this.logger.warn({ err: err ? errorSummary(err) : undefined }, 'AMQP connection lost; reconnecting');
    this.scheduleReconnect(err);
  }

  private scheduleReconnect(err: unknown): void {
    if (this.closed || this.reconnectTimer) return;
    if (this.outageSince === undefined) {
      // The very first connect failed: this is an outage too, log it once.
      this.outageSince = Date.now();
      this.logger.warn({ err: errorSummary(err) }, 'AMQP broker unreachable; retrying in the background');
    }
    const delay = backoffDelay(this.reconnectAttempt++, {
      initialDelayMs: this.options.initialDelayMs ?? 250,
      maxDelayMs: this.options.maxDelayMs ?? 15_000,
    });
    this.logger.debug(
      { attempt: this.reconnectAttempt, delayMs: delay, err: errorSummary(err) },
      'AMQP reconnect scheduled',
    );
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connectOnce();
    }, delay);
  }

  /** Runs one setup, serialised per entry, retrying with backoff while the same connection lives. */
  private runSetup(entry: SetupEntry): void {
    if (entry.running) {
      entry.again = true;
      return;
    }
    if (entry.retryTimer) {
      clearTimeout(entry.retryTimer);
      entry.retryTimer = undefined;
    }
    const model = this.model;
    if (!model) return;
    entry.running = true;
    entry.again = false;
    entry
      .setup(model)
      .then(
        () => {
          entry.failures = 0;
        },
        (err: unknown) => {
          // A failure caused by the connection dropping is handled by the reconnect, not here.
          if (this.model !== model || !this.setups.has(entry)) return;
          if (isConnectionClosed(err)) {
            // The broker can close a connection in the very frames that opened it (e.g. during
            // `rabbitmqctl stop_app`); amqplib then emits 'close' before our listener exists, so
            // a dead connection would look alive forever. Treat it as lost and reconnect.
            this.onConnectionLost(model, err instanceof Error ? err : undefined);
            return;
          }
          const delay = backoffDelay(entry.failures++, { initialDelayMs: 500, maxDelayMs: 15_000 });
          this.logger.error(
            { setup: entry.name, retryInMs: delay, err: errorSummary(err) },
            'AMQP setup failed; retrying',
          );
          entry.retryTimer = setTimeout(() => {
            entry.retryTimer = undefined;
            if (this.setups.has(entry)) this.runSetup(entry);
          }, delay);
        },
      )
      .finally(() => {
        entry.running = false;
        if (entry.again && this.setups.has(entry)) this.runSetup(entry);
      });
  }
}

function isConnectionClosed(err: unknown): boolean {
  return err instanceof Error && /^Connection closed/.test(err.message);
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
