/**
 * The whole product in-process for the system tests, on the test harness of `@crm/testing` (the same
 * one the API tests use): every service, the e-mail worker and the gateway exactly as
 * `gateway/src/main.ts` wires it (with the configuration cache), on the real infrastructure. On top
 * of test-support/stack.ts it
 *  - captures every log line of every component (at `debug`) so tests can search them,
 *  - can stop and restart one service on the same port while the gateway keeps pointing at it,
 *  - can leave the e-mail worker out (a fault test runs it as a child process instead).
 * Each stack has its own databases, exchange and queues.
 */
import { createLogger } from '@crm/server-kit';
import type { ApiService, BusParticipant } from '@crm/contracts';
import { startHarness, type ApiClient, type MailCatcher, type RunningDeployable } from '@crm/testing';
import type { Gateway } from '../../gateway/src/app';
import { loadGatewayConfig } from '../../gateway/src/config';
import { startGateway, type RunningGateway } from '../../gateway/src/start-gateway';
import { DEPLOYABLES, LIFTED_LIMITS, type DeployableName } from '../../test-support/deployables';
import { staffAccountsAt, staffAccountsEnv } from '../../test-support/staff-accounts';

export const STAFF_ACCOUNTS = staffAccountsAt('system.test');

/** In start order: records calls auth, appointments and config, so it comes last but two. */
export const SERVICE_NAMES: ApiService[] = [
  'auth',
  'config',
  'appointments',
  'rooms',
  'records',
  'audit',
  'reporting',
  'payments',
];

export type RunningService = Required<RunningDeployable>;

export interface SystemStackOptions {
  /** Run the e-mail worker in-process (default true). */
  notifications?: boolean;
  /** Extra environment for every component. */
  env?: Record<string, string>;
  /** Topic permissions on the stack's exchange too (see the harness's `restrictTopics`). */
  restrictTopics?: boolean;
}

export interface SystemStack {
  api: ApiClient;
  gatewayUrl: string;
  mail: MailCatcher;
  /** Mailpit's HTTP API. */
  mailApiUrl: string;
  env: NodeJS.ProcessEnv;
  exchange: string;
  /** The operator's broker user (the tests' listeners); each deployable has its own (busUrl). */
  amqpUrl: string;
  busUrl(name: BusParticipant): string;
  /** The environment deployable `name` gets (its own AMQP_URL). */
  envFor(name: BusParticipant): NodeJS.ProcessEnv;
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

export async function startSystemStack(options: SystemStackOptions = {}): Promise<SystemStack> {
  const logs: string[] = [];
  const destination = captureDestination(logs);
  let gateway: RunningGateway | undefined;
  const start: DeployableName[] = [...SERVICE_NAMES];
  if (options.notifications !== false) start.push('notifications');
  const harness = await startHarness({
    deployables: DEPLOYABLES,
    start,
    startGateway: async (env, gatewayOptions) => {
      gateway = await startGateway(loadGatewayConfig(env), gatewayOptions);
      return gateway;
    },
    idPrefix: 'sys',
    logLevel: 'debug',
    logger: (name) => createLogger(name, 'debug', destination),
    // The suite makes thousands of calls from one address; the limits have tests of their own.
    env: { ...staffAccountsEnv(STAFF_ACCOUNTS), ...LIFTED_LIMITS, ...options.env },
    restrictTopics: options.restrictTopics,
  });
  return {
    api: harness.api,
    gatewayUrl: harness.gatewayUrl,
    mail: harness.mail,
    mailApiUrl: harness.infra.mailApiUrl,
    env: harness.env,
    exchange: harness.env.EVENTS_EXCHANGE!,
    amqpUrl: harness.infra.amqpUrl,
    busUrl: harness.busUrl,
    envFor: harness.envFor,
    mongoUrl: harness.infra.mongoUrl,
    gateway: (gateway as RunningGateway).gateway,
    // The harness replaces a restarted service in this same record.
    services: harness.running as Record<ApiService, RunningService>,
    logs,
    signIn: harness.signIn,
    restart: harness.restart,
    stop: harness.stop,
  };
}
