/**
 * The one harness that starts the product in-process for API tests, system tests and benchmarks:
 * chosen deployables exactly as their `main.ts` starts them (own configuration from the stack's
 * environment, own database, `start()`, consumers bound before anything is published), then the
 * gateway as production wires it, all on the real infrastructure. Every stack has its own
 * databases, exchange, queues and cache keys, so stacks never see each other's data.
 *
 * Each deployable connects to the broker as its own user (`AMQP_URL` of its own, from
 * `infra.busUrls`), as in a deployment; the stack's exchange and the audit entries queue are
 * declared beforehand by the operator's user, as a deployment's broker definitions declare them.
 *
 * The deployables themselves are given by the caller (test-support/deployables.ts): packages do not
 * import services. A service's URL is put in the environment of the ones started after it and of
 * the gateway (`<NAME>_SERVICE_URL`, chosen before any starts), as a deployment would.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import type { BusParticipant } from '@crm/contracts';
import type { Logger } from '@crm/server-kit';
import { deleteQueues, liftTopicRestrictions, prepareBus, restrictTopics } from './broker';
import { signInAs } from './accounts';
import { apiClient, type ApiClient } from './http';
import { infrastructure, type InfrastructureUrls } from './infrastructure';
import { uniqueName } from './names';
import { MailCatcher } from './mail-catcher';
import { startRedsysSimulator, type RedsysSimulator } from './redsys-simulator';
import { freePort } from './ports';
import { TEST_JWKS, TEST_SIGNING_KEY_PEM } from './tokens';

/** What a deployable's factory returns, as far as the harness cares (services' `ServiceHandle`). */
export interface Deployable {
  app?: RequestListener;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Resolves once every consumer queue is bound (events published before that would be lost). */
  consuming?(timeoutMs?: number): Promise<void>;
  /** The queues it consumes from (deleted when the stack stops). */
  queueNames?(): string[];
}

export interface DeployableSpec {
  create(env: NodeJS.ProcessEnv, logger: Logger): Deployable | Promise<Deployable>;
  /** Serves HTTP (default): listened on a port of its own, its URL given to later deployables. */
  http?: boolean;
}

/** The gateway, started by the caller's `startGateway` (gateway/src/start-gateway.ts). */
export interface HarnessGateway {
  url: string;
  cacheReady(): Promise<void>;
  close(): Promise<void>;
}

export type GatewayStarter = (
  env: NodeJS.ProcessEnv,
  options: { logger: Logger; cacheKeyPrefix: string; queuePrefix: string },
) => Promise<HarnessGateway>;

export interface RunningDeployable<H extends Deployable = Deployable> {
  name: string;
  handle: H;
  database: string;
  /** Databases dropped when the stack stops. */
  databases: string[];
  url?: string;
  port?: number;
  server?: Server;
  /**
   * Stops it (its HTTP server, calls under way cut after `graceMs`, then the deployable); once: the
   * stack's `stop()` does nothing more for it.
   */
  stop(graceMs?: number): Promise<void>;
}

export interface HarnessOptions<N extends string> {
  deployables: Record<N, DeployableSpec>;
  /** Which to start, in this order (a service that calls another comes after it). */
  start: readonly N[];
  startGateway: GatewayStarter;
  /** Prefix of the stack's id (databases, exchange, queues). */
  idPrefix: string;
  logger: (name: string) => Logger;
  logLevel: string;
  /** Environment on top of the infrastructure's and the test defaults (accounts, limits, knobs). */
  env?: Record<string, string>;
  /**
   * Also give every deployable's broker user the topic permissions of its contracts on the stack's
   * exchange (a deployment's definitions do it for `crm.events`), so the broker itself refuses a
   * routing key its user may not publish. Needs `rabbitmqctl` for the local broker (a few seconds).
   */
  restrictTopics?: boolean;
}

export interface Harness<N extends string> {
  id: string;
  infra: InfrastructureUrls;
  env: NodeJS.ProcessEnv;
  api: ApiClient;
  gatewayUrl: string;
  gateway: HarnessGateway;
  mail: MailCatcher;
  /** A deployable's own broker URL (its user and password). */
  busUrl(name: BusParticipant): string;
  /** The stack's environment as deployable `name` gets it (its own AMQP_URL): for replicas a test starts. */
  envFor(name: BusParticipant): NodeJS.ProcessEnv;
  /** The Redsys simulator, started when the stack runs the payments service. */
  redsys?: RedsysSimulator;
  running: Partial<Record<N, RunningDeployable>>;
  signIn(email: string, password: string): Promise<string>;
  /**
   * Stops one deployable as a deployment would (no new connections, calls under way finish, then
   * its database and broker connections close) and starts a fresh one on the same port.
   */
  restart(name: N): Promise<void>;
  stop(): Promise<void>;
}

function listenOn(listener: RequestListener, port: number): Promise<Server> {
  const server = createServer(listener);
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

/** Stops accepting connections; requests under way finish first (cut after `graceMs`). */
function closeServer(server: Server, graceMs = 0): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
    if (graceMs === 0) server.closeAllConnections();
    else setTimeout(() => server.closeAllConnections(), graceMs).unref();
  });
}

export { deleteQueues } from './broker';

export async function startHarness<N extends string>(options: HarnessOptions<N>): Promise<Harness<N>> {
  const infra = await infrastructure();
  const id = uniqueName(options.idPrefix);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: options.logLevel,
    // Without the auth service in the stack, deployables trust the tests' key as given; with it,
    // they learn it from its JWKS (see `launch`).
    ...((options.start as readonly string[]).includes('auth') ? {} : { JWT_PUBLIC_KEYS: TEST_JWKS }),
    MONGO_URL: infra.mongoUrl,
    // The operator's user; each deployable gets its own instead (envFor).
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    SMTP_URL: infra.smtpUrl,
    PUBLIC_URL: 'http://crm.test',
    EVENTS_EXCHANGE: `${id}.events`,
    QUEUE_PREFIX: id,
    // Tests run at any hour: the kiosk's walk-ins are not bound to the centre's opening hours here
    // (the rule itself is tested with a fixed clock, and with WALK_IN_HOURS=opening where it matters).
    WALK_IN_HOURS: 'any',
    ...options.env,
  };
  const running: Partial<Record<N, RunningDeployable>> = {};
  const busUrl = (name: BusParticipant) => infra.busUrls[name];
  const envFor = (name: BusParticipant): NodeJS.ProcessEnv => ({ ...env, AMQP_URL: busUrl(name) });
  const exchange = env.EVENTS_EXCHANGE!;
  await prepareBus(infra.amqpUrl, { exchange, queuePrefix: id });
  if (options.restrictTopics) await restrictTopics(infra.amqpUrl, exchange);
  // The payments service talks to the card gateway: a simulator of its own per stack, with a random
  // key (the service signs with a library, the simulator checks with its own code).
  let redsys: RedsysSimulator | undefined;
  if ((options.start as readonly string[]).includes('payments') && !options.env?.REDSYS_URL) {
    const secretKey = randomBytes(24).toString('base64');
    redsys = await startRedsysSimulator({ secretKey, merchantCode: '999008881' });
    Object.assign(env, {
      REDSYS_URL: redsys.url,
      REDSYS_SECRET_KEY: secretKey,
      REDSYS_MERCHANT_CODE: '999008881',
      REDSYS_TERMINAL: '1',
    });
  }

  const launch = async (name: N, port = 0): Promise<RunningDeployable> => {
    const spec = options.deployables[name];
    const database = `${id}_${name}`;
    // The auth service alone gets signing material: the tests' key as its operator key, so that
    // tokens a test mints are its own.
    const signing = name === 'auth' ? { JWT_SIGNING_KEY: TEST_SIGNING_KEY_PEM } : {};
    const handle = await spec.create(
      { ...envFor(name as string as BusParticipant), ...signing, MONGO_DB: database },
      options.logger(name),
    );
    const server = spec.http === false || !handle.app ? undefined : await listenOn(handle.app, port);
    await handle.start();
    await handle.consuming?.();
    const actualPort = server && (server.address() as AddressInfo).port;
    let stopped: Promise<void> | undefined;
    const halt = async (graceMs: number) => {
      if (server) await closeServer(server, graceMs);
      await handle.stop();
    };
    return {
      name,
      handle,
      database,
      databases: [database],
      ...(server ? { server, port: actualPort, url: `http://127.0.0.1:${actualPort}` } : {}),
      stop: (graceMs = 0) => (stopped ??= halt(graceMs)),
    };
  };

  // Every HTTP deployable's address is chosen before any starts, so each may call the others
  // whatever the order (the auth service reads appointments and records for a data export).
  const ports = new Map<N, number>();
  for (const name of options.start) {
    if (options.deployables[name].http === false) continue;
    const port = await freePort();
    ports.set(name, port);
    env[`${name.toUpperCase()}_SERVICE_URL`] = `http://127.0.0.1:${port}`;
  }
  for (const name of options.start) running[name] = await launch(name, ports.get(name) ?? 0);

  const gatewayQueue = `${id}.gateway.view-cache`;
  const gateway = await options.startGateway(
    { ...envFor('gateway'), PORT: '0' },
    { logger: options.logger('gateway'), cacheKeyPrefix: `${id}:config:`, queuePrefix: id },
  );
  await gateway.cacheReady();
  const api = apiClient(`${gateway.url}/api/v1`);
  // The stack's public address (PUBLIC_URL) is not resolvable: the gateway's notifications go to the gateway.
  redsys?.routeTo(env.PUBLIC_URL!, gateway.url);

  return {
    id,
    infra,
    env,
    api,
    gatewayUrl: gateway.url,
    gateway,
    mail: new MailCatcher(infra.mailApiUrl),
    busUrl,
    envFor,
    ...(redsys ? { redsys } : {}),
    running,
    signIn: async (email, password) => (await signInAs(api, { email, password })).token,
    async restart(name) {
      const current = running[name];
      if (!current) throw new Error(`${name} is not running in this stack`);
      await current.stop(3000);
      running[name] = await launch(name, current.port);
    },
    async stop() {
      await gateway.close();
      const started = options.start.map((name) => running[name]).filter((d) => d !== undefined);
      const queues = [gatewayQueue, ...started.flatMap((d) => d.handle.queueNames?.() ?? [])];
      for (const deployable of [...started].reverse()) await deployable.stop();
      const connection = await mongoose.createConnection(infra.mongoUrl).asPromise();
      for (const database of started.flatMap((d) => d.databases)) {
        await connection
          .useDb(database)
          .dropDatabase()
          .catch(() => undefined);
      }
      await connection.close();
      await deleteQueues(infra.amqpUrl, queues, [exchange]);
      if (options.restrictTopics) await liftTopicRestrictions(infra.amqpUrl, exchange);
      await redsys?.close();
    },
  };
}
