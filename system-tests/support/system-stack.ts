/**
 * The whole product in-process for the system tests: every service, the e-mail worker and the
 * gateway exactly as `gateway/src/main.ts` wires it (with the configuration cache), on the real
 * infrastructure. Unlike test-support/stack.ts it
 *  - captures every log line of every component (at `debug`) so tests can search them,
 *  - can stop and restart one service on the same port while the gateway keeps pointing at it,
 *  - can leave the e-mail worker out (a fault test runs it as a child process instead).
 * Each stack has its own databases, exchange and queues.
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import mongoose from 'mongoose';
import amqp from 'amqplib';
import { createLogger, type Logger } from '@crm/server-kit';
import type { ApiService } from '@crm/contracts';
import {
  apiClient,
  infrastructure,
  MailCatcher,
  TEST_JWT_SECRET,
  uniqueName,
  type ApiClient,
} from '@crm/testing';
import type { Gateway } from '../../gateway/src/app';
import { loadGatewayConfig } from '../../gateway/src/config';
import { startGateway } from '../../gateway/src/start-gateway';
import { createAuthService } from '../../services/auth/src/app';
import { loadAuthConfig } from '../../services/auth/src/config';
import { createAppointmentsService } from '../../services/appointments/src/app';
import { loadAppointmentsConfig } from '../../services/appointments/src/config';
import { createRecordsService, RECORDS_QUEUE_PURPOSES } from '../../services/records/src/app';
import { loadRecordsConfig } from '../../services/records/src/config';
import { createRoomsService } from '../../services/rooms/src/app';
import { loadRoomsConfig } from '../../services/rooms/src/config';
import { createConfigService } from '../../services/config/src/app';
import { loadConfigServiceConfig } from '../../services/config/src/config';
import {
  createNotificationsService,
  NOTIFICATIONS_QUEUE_PURPOSES,
} from '../../services/notifications/src/app';
import { loadNotificationsConfig } from '../../services/notifications/src/config';
import { createAuditService } from '../../services/audit/src/app';
import { loadAuditConfig } from '../../services/audit/src/config';
import { createReportingService } from '../../services/reporting/src/app';
import { loadReportingConfig } from '../../services/reporting/src/config';

export const STAFF_ACCOUNTS = {
  admin: { email: 'admin@system.test', password: 'Admin1234!' },
  doctor: { email: 'doctor@system.test', password: 'Doctor1234!' },
  kiosk: { email: 'kiosk@system.test', password: 'Kiosk1234!' },
};

/** What every service factory returns, as far as the harness cares. */
export interface ServiceHandle {
  app: RequestListener;
  start(): Promise<void>;
  stop(): Promise<void>;
  consuming?(timeoutMs?: number): Promise<void>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  models?: any;
}

type Factory = (env: NodeJS.ProcessEnv, logger: Logger) => ServiceHandle;

/** In start order: records calls auth, appointments and config, so it comes last. */
const FACTORIES: Record<ApiService, Factory> = {
  auth: (env, logger) => createAuthService(loadAuthConfig(env), logger),
  config: (env, logger) => createConfigService(loadConfigServiceConfig(env), logger),
  appointments: (env, logger) => createAppointmentsService(loadAppointmentsConfig(env), logger),
  rooms: (env, logger) => createRoomsService(loadRoomsConfig(env), logger),
  records: (env, logger) => createRecordsService(loadRecordsConfig(env), logger),
  audit: (env, logger) => createAuditService(loadAuditConfig(env), logger),
  reporting: (env, logger) => createReportingService(loadReportingConfig(env), logger),
};
export const SERVICE_NAMES = Object.keys(FACTORIES) as ApiService[];

export interface RunningService {
  name: ApiService;
  url: string;
  port: number;
  database: string;
  handle: ServiceHandle;
  server: Server;
}

export interface SystemStackOptions {
  /** Run the e-mail worker in-process (default true). */
  notifications?: boolean;
  /** Extra environment for every component. */
  env?: Record<string, string>;
}

export interface SystemStack {
  api: ApiClient;
  gatewayUrl: string;
  mail: MailCatcher;
  /** Mailpit's HTTP API. */
  mailApiUrl: string;
  env: NodeJS.ProcessEnv;
  exchange: string;
  amqpUrl: string;
  mongoUrl: string;
  gateway: Gateway;
  services: Record<ApiService, RunningService>;
  /** Every log line written by every component, raw JSON text. */
  logs: string[];
  signIn(email: string, password: string): Promise<string>;
  /**
   * Stops one service as a deployment would (no new connections, calls under way finish, then the
   * database and broker connections close) and starts a fresh one on the same port.
   */
  restart(name: ApiService): Promise<void>;
  stop(): Promise<void>;
}

/** A pino destination that keeps every line (echoed to stderr when TEST_LOG_LEVEL asks for it). */
function captureDestination(lines: string[]) {
  const echo = process.env.TEST_LOG_LEVEL !== undefined && process.env.TEST_LOG_LEVEL !== 'silent';
  return {
    write(line: string) {
      lines.push(line);
      if (echo) process.stderr.write(line);
    },
  };
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

export async function startSystemStack(options: SystemStackOptions = {}): Promise<SystemStack> {
  const infra = await infrastructure();
  const id = uniqueName('sys');
  const logs: string[] = [];
  const destination = captureDestination(logs);
  const logger = (name: string) => createLogger(name, 'debug', destination);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: 'debug',
    JWT_SECRET: TEST_JWT_SECRET,
    MONGO_URL: infra.mongoUrl,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    SMTP_URL: infra.smtpUrl,
    PUBLIC_URL: 'http://crm.test',
    EVENTS_EXCHANGE: `${id}.events`,
    QUEUE_PREFIX: id,
    BOOTSTRAP_ADMIN_EMAIL: STAFF_ACCOUNTS.admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: STAFF_ACCOUNTS.admin.password,
    BOOTSTRAP_DOCTOR_EMAIL: STAFF_ACCOUNTS.doctor.email,
    BOOTSTRAP_DOCTOR_PASSWORD: STAFF_ACCOUNTS.doctor.password,
    BOOTSTRAP_KIOSK_EMAIL: STAFF_ACCOUNTS.kiosk.email,
    BOOTSTRAP_KIOSK_PASSWORD: STAFF_ACCOUNTS.kiosk.password,
    // The suite makes thousands of calls from one address; the limits have tests of their own.
    RATE_LIMIT_MAX: '1000000',
    RATE_LIMIT_AUTH_MAX: '1000000',
    RATE_LIMIT_SIGNIN_FAILURES_MAX: '1000000',
    SIGNIN_MAX_ATTEMPTS: '100000',
    SIGNIN_MAX_ATTEMPTS_PER_CLIENT: '1000000',
    FORGOT_PASSWORD_MAX_ATTEMPTS: '100000',
    RESEND_CONFIRMATION_MAX_ATTEMPTS: '100000',
    RESEND_CONFIRMATION_MAX_ATTEMPTS_PER_CLIENT: '1000000',
    // Patients not yet in a read model are looked up in auth; keep that quick under load.
    ...options.env,
  };

  const services = {} as Record<ApiService, RunningService>;
  const startService = async (name: ApiService, port: number): Promise<RunningService> => {
    const database = `${id}_${name}`;
    const handle = FACTORIES[name]({ ...env, MONGO_DB: database }, logger(name));
    const server = await listenOn(handle.app, port);
    await handle.start();
    await handle.consuming?.();
    const actualPort = (server.address() as AddressInfo).port;
    return { name, url: `http://127.0.0.1:${actualPort}`, port: actualPort, database, handle, server };
  };
  for (const name of SERVICE_NAMES) {
    services[name] = await startService(name, 0);
    env[`${name.toUpperCase()}_SERVICE_URL`] = services[name].url;
  }

  let notifications: ReturnType<typeof createNotificationsService> | undefined;
  const notificationsDb = `${id}_notifications`;
  if (options.notifications !== false) {
    notifications = createNotificationsService(
      loadNotificationsConfig({ ...env, MONGO_DB: notificationsDb }),
      logger('notifications'),
    );
    await notifications.start();
    await notifications.consuming();
  }

  const gatewayConfig = loadGatewayConfig({ ...env, PORT: '0' });
  const running = await startGateway(gatewayConfig, {
    logger: logger('gateway'),
    cacheKeyPrefix: `${id}:view-config:`,
    queuePrefix: id,
  });
  await running.cacheReady();
  const gateway = running.gateway;
  const gatewayServer = { url: running.url, close: () => running.close() };

  const api = apiClient(`${gatewayServer.url}/api/v1`);

  return {
    api,
    gatewayUrl: gatewayServer.url,
    mail: new MailCatcher(infra.mailApiUrl),
    mailApiUrl: infra.mailApiUrl,
    env,
    exchange: env.EVENTS_EXCHANGE!,
    amqpUrl: infra.amqpUrl,
    mongoUrl: env.MONGO_URL!,
    gateway,
    services,
    logs,
    async signIn(email, password) {
      const response = await api.post('/auth/signIn', { email, password });
      if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status}`);
      return response.body.sessiontoken as string;
    },
    async restart(name) {
      const running = services[name];
      await closeServer(running.server, 3000);
      await running.handle.stop();
      services[name] = await startService(name, running.port);
    },
    async stop() {
      await gatewayServer.close();
      await notifications?.stop();
      for (const name of [...SERVICE_NAMES].reverse()) {
        await closeServer(services[name].server);
        await services[name].handle.stop();
      }
      const connection = await mongoose.createConnection(env.MONGO_URL!).asPromise();
      for (const database of [...SERVICE_NAMES.map((name) => services[name].database), notificationsDb]) {
        await connection
          .useDb(database)
          .dropDatabase()
          .catch(() => undefined);
      }
      await connection.close();
      await deleteQueuesWithPrefix(infra.amqpUrl, id);
    },
  };
}

/** The consumer queues this stack declared (names are `<prefix>.<service>.<purpose>[.retry|.dlq]`). */
const QUEUE_SUFFIXES = [
  'appointments.patients',
  'audit.entries',
  'audit.staff',
  ...RECORDS_QUEUE_PURPOSES.map((purpose) => `records.${purpose}`),
  'appointments.records',
  'gateway.view-cache',
  ...NOTIFICATIONS_QUEUE_PURPOSES.map((purpose) => `notifications.${purpose}`),
  // Every service that verifies tokens keeps the ended sessions (server-kit's ended-sessions.ts).
  ...['auth', 'appointments', 'records', 'rooms', 'config', 'audit', 'reporting'].map((s) => `${s}.sessions`),
];

async function deleteQueuesWithPrefix(amqpUrl: string, prefix: string): Promise<void> {
  const connection = await amqp.connect(amqpUrl).catch(() => undefined);
  if (!connection) return;
  try {
    const channel = await connection.createChannel();
    channel.on('error', () => undefined);
    for (const suffix of QUEUE_SUFFIXES) {
      for (const name of ['', '.retry', '.dlq']) {
        await channel.deleteQueue(`${prefix}.${suffix}${name}`).catch(() => undefined);
      }
    }
  } finally {
    await connection.close().catch(() => undefined);
  }
}
