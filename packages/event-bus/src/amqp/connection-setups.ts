import type { ChannelModel } from 'amqplib';
import { errorSummary, type Logger } from './logger';
import { backoffDelay } from './retry-schedule';

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
 * The setups of the components sharing one connection (the publisher, every subscription). Each
 * runs on every new connection, one run at a time per component, and a failing one is retried
 * with backoff on its own: one misbehaving component neither blocks the others nor tears the
 * shared connection down. (amqplib's recovery has a single `setup` hook, whose failure drops the
 * whole connection; that is why this layer exists.)
 */
export class ConnectionSetups {
  private readonly entries = new Set<SetupEntry>();

  constructor(
    /** The live connection, or undefined while disconnected. */
    private readonly current: () => ChannelModel | undefined,
    private readonly logger: Logger,
  ) {}

  /** Adds a setup and runs it now if connected. */
  register(name: string, setup: ConnectionSetup): SetupRegistration {
    const entry: SetupEntry = { name, setup, running: false, again: false, failures: 0 };
    this.entries.add(entry);
    if (this.current()) this.run(entry);
    return {
      rerun: () => {
        // Deferred one tick: when a connection dies, amqplib closes its channels before it emits
        // the connection's own 'close', so an immediate rerun would try the dying connection.
        setImmediate(() => {
          if (this.entries.has(entry) && this.current()) this.run(entry);
        });
      },
      dispose: () => {
        this.entries.delete(entry);
        if (entry.retryTimer) clearTimeout(entry.retryTimer);
      },
    };
  }

  /** On a new connection. */
  runAll(): void {
    for (const entry of this.entries) this.run(entry);
  }

  /** On shutdown: forget every setup and cancel pending retries. */
  clear(): void {
    for (const entry of this.entries) if (entry.retryTimer) clearTimeout(entry.retryTimer);
    this.entries.clear();
  }

  /** Runs one setup, serialised per entry, retrying with backoff while the same connection lives. */
  private run(entry: SetupEntry): void {
    if (entry.running) {
      entry.again = true;
      return;
    }
    if (entry.retryTimer) {
      clearTimeout(entry.retryTimer);
      entry.retryTimer = undefined;
    }
    const model = this.current();
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
          if (this.current() !== model || !this.entries.has(entry)) return;
          const delay = backoffDelay(entry.failures++, { initialDelayMs: 500, maxDelayMs: 15_000 });
          this.logger.error(
            { setup: entry.name, retryInMs: delay, err: errorSummary(err) },
            'AMQP setup failed; retrying',
          );
          entry.retryTimer = setTimeout(() => {
            entry.retryTimer = undefined;
            if (this.entries.has(entry)) this.run(entry);
          }, delay);
        },
      )
      .finally(() => {
        entry.running = false;
        if (entry.again && this.entries.has(entry)) this.run(entry);
      });
  }
}
