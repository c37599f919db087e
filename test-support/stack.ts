/**
 * Starts the real back end in-process for API tests: the chosen services, the e-mail worker and the
 * gateway in front, against the real MongoDB-compatible server, RabbitMQ, Redis and SMTP catcher.
 * Every stack gets its own databases, exchange and queues, so test files never see each other's data.
 */
import { createLogger } from '@crm/server-kit';
import {
  apiClient,
  infrastructure,
  MailCatcher,
  TEST_JWT_SECRET,
  uniqueName,
  type ApiClient,
} from '@crm/testing';
import mongoose from 'mongoose';
import { loadGatewayConfig } from '../gateway/src/config';
import { startGateway } from '../gateway/src/start-gateway';
import { COMPONENTS, type ComponentName } from './components';
import { deleteConsumerQueues } from './components/service-component';
import type { StartedComponent } from './components/types';
import type { AuthService } from '../services/auth/src/app';

export const BOOTSTRAP = {
  admin: { email: 'admin@stack.test', password: 'Admin1234!' },
  doctor: { email: 'doctor@stack.test', password: 'Doctor1234!' },
  kiosk: { email: 'kiosk@stack.test', password: 'Kiosk1234!' },
};

export interface Stack {
  api: ApiClient;
  gatewayUrl: string;
  mail: MailCatcher;
  mongoUrl: string;
  amqpUrl: string;
  exchange: string;
  env: NodeJS.ProcessEnv;
  /** The started components, by name, e.g. `stack.components.auth.url`. */
  components: Partial<Record<ComponentName, StartedComponent>>;
  auth: AuthService;
  /** Signs in through the gateway and returns the session token. */
  signIn(email: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /** Which deployables to start besides the gateway. Default: auth and the e-mail worker. */
  components?: ComponentName[];
  /** Extra environment for every component (e.g. tighter rate limits for one test). */
  env?: Record<string, string>;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const infra = await infrastructure();
  const id = uniqueName('stack');
  const logLevel = process.env.TEST_LOG_LEVEL ?? 'silent';
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'test',
    LOG_LEVEL: logLevel,
    JWT_SECRET: TEST_JWT_SECRET,
    MONGO_URL: infra.mongoUrl,
    AMQP_URL: infra.amqpUrl,
    REDIS_URL: infra.redisUrl,
    SMTP_URL: infra.smtpUrl,
    PUBLIC_URL: 'http://crm.test',
    EVENTS_EXCHANGE: `${id}.events`,
    QUEUE_PREFIX: id,
    BOOTSTRAP_ADMIN_EMAIL: BOOTSTRAP.admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: BOOTSTRAP.admin.password,
    BOOTSTRAP_DOCTOR_EMAIL: BOOTSTRAP.doctor.email,
    BOOTSTRAP_DOCTOR_PASSWORD: BOOTSTRAP.doctor.password,
    BOOTSTRAP_KIOSK_EMAIL: BOOTSTRAP.kiosk.email,
    BOOTSTRAP_KIOSK_PASSWORD: BOOTSTRAP.kiosk.password,
    // Tests run many sign-ins from one address; the limits are tested on their own with low values.
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '100000',
    RATE_LIMIT_SIGNIN_FAILURES_MAX: '100000',
    SIGNIN_MAX_ATTEMPTS: '1000',
    SIGNIN_MAX_ATTEMPTS_PER_CLIENT: '100000',
    FORGOT_PASSWORD_MAX_ATTEMPTS: '1000',
    RESEND_CONFIRMATION_MAX_ATTEMPTS: '1000',
    RESEND_CONFIRMATION_MAX_ATTEMPTS_PER_CLIENT: '100000',
    ...options.env,
  };

  const names = options.components ?? ['auth', 'notifications'];
  if (!names.includes('auth')) names.unshift('auth');
  const components: Partial<Record<ComponentName, StartedComponent>> = {};
  const context = { env, id, logger: (name: string) => createLogger(name, logLevel) };
  for (const name of names) {
    const component = await COMPONENTS[name](context);
    components[name] = component;
    // Services started later (and the gateway) reach this one the way they would in production.
    if (component.url) env[`${name.toUpperCase()}_SERVICE_URL`] = component.url;
  }

  // The gateway as production wires it, config cache included (its keys and queue are the stack's).
  const gatewayServer = await startGateway(loadGatewayConfig({ ...env, PORT: '0' }), {
    logger: createLogger('gateway', logLevel),
    cacheKeyPrefix: `${id}:config:`,
    queuePrefix: id,
  });
  await gatewayServer.cacheReady();
  const api = apiClient(`${gatewayServer.url}/api/v1`);

  return {
    api,
    gatewayUrl: gatewayServer.url,
    mail: new MailCatcher(infra.mailApiUrl),
    mongoUrl: infra.mongoUrl,
    amqpUrl: infra.amqpUrl,
    exchange: env.EVENTS_EXCHANGE!,
    env,
    components,
    auth: components.auth!.handle as AuthService,
    async signIn(email, password) {
      const response = await api.post('/auth/signIn', { email, password });
      if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status}`);
      return response.body.sessiontoken as string;
    },
    async stop() {
      await gatewayServer.close();
      await deleteConsumerQueues(infra.amqpUrl, `${id}.gateway.view-cache`);
      for (const name of [...names].reverse()) await components[name]?.stop();
      const connection = await mongoose.createConnection(infra.mongoUrl).asPromise();
      for (const component of Object.values(components)) {
        for (const database of component.databases) {
          await connection
            .useDb(database)
            .dropDatabase()
            .catch(() => undefined);
        }
      }
      await connection.close();
    },
  };
}

/** A unique, valid e-mail address, so tests can find their own messages in the shared catcher. */
export const uniqueEmail = (label = 'user') => `${uniqueName(label).toLowerCase()}@example.test`;
