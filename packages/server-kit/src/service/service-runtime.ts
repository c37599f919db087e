import type { Express } from 'express';
import type { EventContract } from '@crm/contracts';
import {
  brokerUserOf,
  createServiceBus,
  MongoProcessedEventStore,
  type OutboxSource,
  type SubscribeOptions,
  type Subscription,
} from '@crm/event-bus';
import { requireAuth, TokenService, type SessionCheck } from '../auth';
import type { ReadinessCheck } from '../health';
import { createHttpApp } from '../http-app';
import type { Logger } from '../logger';
import { DEFAULT_METRICS_ALLOW_CIDRS, eventBusMetrics, httpMetrics, queueDepthGauges } from '../metrics';
import { outboxLagGauge, sweepLagGauge } from '../metrics/service-gauges';
import { verificationKeysFor, type VerificationKeys } from '../verification-keys';
import { auditEntriesQueue, createAuditTrail } from './audit-trail';
import { createEndedSessions } from './ended-sessions';
import { internalStatusRoutes } from './internal-status';
import { connectMongo, syncIndexes } from './mongo';
import type { BackgroundTask, ServiceHandle } from './types';

/** The environment every service with a database and the event bus reads (see serviceEnvSchema). */
export interface RuntimeConfig {
  MONGO_URL: string;
  MONGO_DB: string;
  AMQP_URL: string;
  EVENTS_EXCHANGE: string;
  QUEUE_PREFIX: string;
  /**
   * Whom to trust for session tokens: the auth service's published keys, or a fixed JWKS document.
   * Both absent for workers that take no calls from people (they verify no tokens).
   */
  AUTH_SERVICE_URL?: string;
  JWT_PUBLIC_KEYS?: string;
  /** How long one database read may run (default 14 s, see @crm/server-kit config). */
  QUERY_MAX_TIME_MS?: number;
  /** How often published access-trail entries are swept from `audit_outbox` (default 60 s). */
  AUDIT_OUTBOX_SWEEP_MS?: number;
  /** How often each replica reloads the ended sessions stored by any replica (default 1 s). */
  ENDED_SESSIONS_POLL_MS?: number;
  /** How long dead-lettered messages are kept (default 14 days). */
  DEAD_LETTER_TTL_HOURS?: number;
  /** Who may read `GET /metrics` (addresses and CIDR ranges; default loopback and private networks). */
  METRICS_ALLOW_CIDRS?: string;
  /** Attempts and retry waits of consumers that set none of their own. */
  CONSUMER_MAX_ATTEMPTS?: number;
  CONSUMER_RETRY_DELAYS_MS?: number[];
}

/** A consumer of the service: its queue is `<QUEUE_PREFIX>.<service>.<purpose>`. */
export type ConsumerSpec = Omit<SubscribeOptions<readonly EventContract[]>, 'queue' | 'idempotency'> & {
  purpose: string;
};

/**
 * The plumbing every service wires the same way: its database, the event bus (one connection, a
 * publisher, consumers with Mongo idempotency), the outbox relay over the collections whose writes
 * carry events, the access trail, the token check, the HTTP app with readiness,
 * background tasks, and the order of start-up and shutdown. A service's `app.ts` adds only its own
 * repositories, routes and seeders.
 */
const deadLetterTtlMs = (config: RuntimeConfig): number => (config.DEAD_LETTER_TTL_HOURS ?? 336) * 3_600_000;

/** What a service adds to the runtime's start and stop (`runtime.startAndStop`). */
export interface StartAndStopHooks {
  /** First thing on start: clients that connect by themselves (not awaited). */
  beforeStart?: () => void;
  /** Once the database is ready and indexed, before consuming: the service's seeders. */
  seed?: () => Promise<void>;
  /** Once the runtime has started: the service's own background work. */
  afterStart?: () => void;
  /** First thing on stop, once the tasks' timers are cleared: what the service added (sweepers, clients). */
  beforeStop?: () => Promise<unknown> | unknown;
  /** Last thing on stop, once the consumers are closed: what they used (the SMTP pool of the mailer). */
  afterStop?: () => Promise<unknown> | unknown;
  /** How long `consuming()` waits when not told. */
  consumingTimeoutMs?: number;
}

export interface RuntimeOptions {
  /** The keys to verify tokens with, when the service has its own (the auth service, the signer). */
  verificationKeys?: VerificationKeys;
}

/**
 * A deployable connects to RabbitMQ as the broker user of its own name: its events carry that name
 * (`user_id`), and the other deployables accept them only from the publishers their contracts name.
 * Under any other user its events would all be dropped, so it refuses to start instead.
 */
export function assertOwnBrokerUser(name: string, amqpUrl: string): void {
  const user = brokerUserOf(amqpUrl);
  if (user !== name)
    throw new Error(
      `AMQP_URL connects as "${user}": the ${name} service must use its own broker user "${name}" (docs/operations.md, "Broker users")`,
    );
}

export function createServiceRuntime(
  name: string,
  config: RuntimeConfig,
  logger: Logger,
  options: RuntimeOptions = {},
) {
  assertOwnBrokerUser(name, config.AMQP_URL);
  const mongo = connectMongo(config.MONGO_URL, config.MONGO_DB, logger, {
    queryMaxTimeMs: config.QUERY_MAX_TIME_MS,
  });
  // Metrics: the deployable's registry, its HTTP and bus counters (gauges wired below).
  const http = httpMetrics(name, config.METRICS_ALLOW_CIDRS ?? DEFAULT_METRICS_ALLOW_CIDRS);
  const bus = createServiceBus({
    url: config.AMQP_URL,
    exchange: config.EVENTS_EXCHANGE,
    logger,
    name,
    metrics: eventBusMetrics(http.metrics),
  });
  const keys = options.verificationKeys ?? verificationKeysFor(config, logger);
  const tokens = keys ? new TokenService(keys) : undefined;
  const verifiedTokens = (): TokenService => {
    if (!tokens) throw new Error(`${name}: AUTH_SERVICE_URL or JWT_PUBLIC_KEYS is required to verify tokens`);
    return tokens;
  };
  let relay: ReturnType<typeof bus.outboxRelay> | undefined;
  /** What the relay publishes from (the access trail's outbox always): outbox lag, `/internal/status`. */
  let outboxSources: OutboxSource[] = [];
  const consumers: ConsumerSpec[] = [];
  /** Feeds with their own queue name and idempotency (subscribed at start, after the consumers). */
  const feeds: SubscribeOptions<readonly EventContract[]>[] = [];
  const tasks: BackgroundTask[] = [];
  const subscriptions: Subscription[] = [];
  const timers: NodeJS.Timeout[] = [];
  // The access trail: its `audit_outbox` always joins the relay (an entry is published whatever the
  // order of wiring); its queue and sweeper are set up at start once a route has asked for it.
  const audit = createAuditTrail(mongo.connection, {
    onWrite: () => relay?.kick(),
    sweepIntervalMs: config.AUDIT_OUTBOX_SWEEP_MS,
  });
  let auditInUse = false;
  // A service that verifies tokens refuses ended sessions by itself (ended-sessions.ts).
  const endedSessions = tokens
    ? createEndedSessions(mongo.connection, { pollMs: config.ENDED_SESSIONS_POLL_MS })
    : undefined;
  if (endedSessions) {
    consumers.push({ purpose: 'sessions', events: endedSessions.events });
    tasks.push(endedSessions.refresh);
  }

  const sweeps = sweepLagGauge(http.metrics);
  const runTask = (task: BackgroundTask) =>
    task
      .run()
      .then(() => sweeps.completed(task.name))
      .catch((error: Error) =>
        logger.warn({ task: task.name, err: error.message }, 'task failed; retried later'),
      );

  /** Every queue this service consumes from, with its retry and dead-letter queues (test clean-up). */
  const queueNames = (): string[] =>
    [
      // The access trail's queue, declared ahead by the broker's definitions (or the test harness).
      ...(auditInUse ? [auditEntriesQueue(config.QUEUE_PREFIX)] : []),
      ...consumers.map(({ purpose }) => `${config.QUEUE_PREFIX}.${name}.${purpose}`),
      ...feeds.map((f) => f.queue),
    ].flatMap((queue) => [queue, `${queue}.retry`, `${queue}.dlq`]);

  // Metrics: outbox lag over the collections the relay publishes, depth of the service's own queues
  // (the access trail's queue belongs to the audit service).
  outboxLagGauge(http.metrics, () => outboxSources);
  queueDepthGauges(http.metrics, bus.connection, () =>
    queueNames().filter((queue) => queue.startsWith(`${config.QUEUE_PREFIX}.${name}.`)),
  );

  /** Connects, creates indexes, runs the seeders, then starts consuming, relaying and the tasks. */
  async function start(seed?: () => Promise<void>) {
    if (auditInUse && !tasks.includes(audit.sweeper)) {
      if (!relay) {
        relay = bus.outboxRelay([audit.model]);
        outboxSources = [audit.model];
      }
      tasks.push(audit.sweeper);
    }
    bus.connection.start();
    // Learn the token keys early (not awaited: the auth service may be starting too).
    void keys?.refresh();
    await mongo.ready;
    await syncIndexes(mongo.connection);
    await seed?.();
    const idempotency = new MongoProcessedEventStore(mongo.connection);
    for (const { purpose, ...options } of consumers) {
      subscriptions.push(
        bus.consumer.subscribe({
          ...(config.CONSUMER_MAX_ATTEMPTS ? { maxAttempts: config.CONSUMER_MAX_ATTEMPTS } : {}),
          ...(config.CONSUMER_RETRY_DELAYS_MS ? { retryDelayMs: config.CONSUMER_RETRY_DELAYS_MS } : {}),
          ...options,
          queue: `${config.QUEUE_PREFIX}.${name}.${purpose}`,
          idempotency,
          deadLetterTtlMs: deadLetterTtlMs(config),
        }),
      );
    }
    for (const feed of feeds)
      subscriptions.push(bus.consumer.subscribe({ deadLetterTtlMs: deadLetterTtlMs(config), ...feed }));
    relay?.start();
    for (const task of tasks) {
      sweeps.registered(task.name);
      await runTask(task);
      const timer = setInterval(() => void runTask(task), task.intervalMs);
      timer.unref();
      timers.push(timer);
    }
  }

  /** Resolves once every consumer's queue is bound to the exchange (tests wait for it). */
  async function consuming(timeoutMs?: number) {
    await Promise.all(subscriptions.map((subscription) => subscription.ready(timeoutMs)));
  }

  /** Stops in the reverse order of start; `before` closes what the service added (sweepers, clients). */
  async function stop(before?: () => Promise<unknown> | unknown) {
    timers.forEach(clearInterval);
    await before?.();
    await relay?.stop();
    await bus.consumer.close();
    await bus.connection.close();
    await mongo.close();
  }

  return {
    name,
    logger,
    mongo,
    connection: mongo.connection,
    bus,
    /** Verifies session tokens with public keys (services that take calls from people). */
    get tokens(): TokenService {
      return verifiedTokens();
    },
    /**
     * Verifies the bearer token and that its session was not ended (signed out, password reset,
     * account disabled), plus the service's own check when one is given.
     */
    requireUser: (isSessionValid?: SessionCheck) =>
      requireAuth(
        verifiedTokens(),
        async (user) =>
          endedSessions!.isSessionValid(user) && (isSessionValid ? await isSessionValid(user) : true),
      ),
    /** The deployable's Prometheus metrics (`GET /metrics`): add a service's own counters here. */
    metrics: http.metrics,
    /** How many events its consumers dropped because they did not come from a publisher of theirs. */
    refusedEvents: () => bus.consumer.refusedCount(),
    /**
     * The service's access trail (services/audit/README.md, "How to record"): take it while wiring,
     * before `start`; `await runtime.audit.recordRequest(req, {action, resource, …})` in a route.
     */
    get audit() {
      auditInUse = true;
      return audit;
    },
    /**
     * Publishes the events written into these collections' outbox (and the access trail's); call
     * once, before `start`.
     */
    outbox(sources: OutboxSource[]) {
      outboxSources = [...sources, audit.model];
      relay = bus.outboxRelay(outboxSources);
      return relay;
    },
    /** Wakes the outbox relay after a write (repositories get this as their `onWrite`). */
    kickOutbox: () => relay?.kick(),
    consume(spec: ConsumerSpec) {
      consumers.push(spec);
    },
    /**
     * A feed that needs no processed-events records (its storage is idempotent by itself) or a
     * queue name of its own; subscribed at start like the consumers.
     */
    feed(options: SubscribeOptions<readonly EventContract[]>) {
      feeds.push(options);
    },
    every(task: BackgroundTask) {
      tasks.push(task);
    },
    httpApp(routes: (app: Express) => void, readiness: ReadinessCheck[] = []): Express {
      return createHttpApp({
        logger,
        readiness: [{ name: 'database', check: mongo.isReady }, bus.readiness, ...readiness],
        metrics: http,
        routes: (app) => {
          app.use(
            internalStatusRoutes({
              name,
              outboxSources: () => outboxSources,
              queues: () => queueNames().filter((queue) => !/\.(retry|dlq)$/.test(queue)),
            }),
          );
          routes(app);
        },
      });
    },
    /**
     * The start and stop of the service (its ServiceHandle but the app): the runtime's, in their order,
     * with what the service adds to them. A service spreads it into what its factory returns.
     */
    startAndStop(hooks: StartAndStopHooks = {}): Omit<ServiceHandle, 'app'> {
      return {
        async start() {
          hooks.beforeStart?.();
          await start(hooks.seed);
          hooks.afterStart?.();
        },
        consuming: (timeoutMs = hooks.consumingTimeoutMs) => consuming(timeoutMs),
        queueNames,
        async stop() {
          await stop(hooks.beforeStop);
          await hooks.afterStop?.();
        },
      };
    },
  };
}

export type ServiceRuntime = ReturnType<typeof createServiceRuntime>;
