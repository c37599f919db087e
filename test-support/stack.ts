/**
 * The back end in-process for API tests (the harness of `@crm/testing`): the chosen services, the
 * e-mail worker and the gateway in front, against the real MongoDB-compatible server, RabbitMQ,
 * Redis and SMTP catcher. Every stack gets its own databases, exchange and queues, so test files
 * never see each other's data.
 */
import type { BusParticipant } from '@crm/contracts';
import { createLogger } from '@crm/server-kit';
import {
  startHarness,
  type ApiClient,
  type MailCatcher,
  type RedsysSimulator,
  type RunningDeployable,
} from '@crm/testing';
import type { AuthService } from '../services/auth/src/app';
import { DEPLOYABLES, LIFTED_LIMITS, startTestGateway, type DeployableName } from './deployables';
import { BOOTSTRAP, staffAccountsEnv } from './staff-accounts';

// Re-exported: most tests take their stack, its accounts and their addresses from here.
export { BOOTSTRAP };
export { uniqueEmail } from '@crm/testing';

export type ComponentName = DeployableName;

export interface Stack {
  api: ApiClient;
  gatewayUrl: string;
  mail: MailCatcher;
  /** The Redsys simulator of a stack that runs the payments service. */
  redsys?: RedsysSimulator;
  mongoUrl: string;
  /** The operator's broker user, for the tests' own listeners; deployables have their own (busUrl). */
  amqpUrl: string;
  /** A deployable's own broker URL: publish as it (publishEnvelopes), or start a replica of it. */
  busUrl(name: BusParticipant): string;
  exchange: string;
  env: NodeJS.ProcessEnv;
  /** The environment deployable `name` gets (its own AMQP_URL), for a replica a test starts itself. */
  envFor(name: BusParticipant): NodeJS.ProcessEnv;
  /** The started components, by name, e.g. `stack.components.auth.url`. */
  components: Partial<Record<ComponentName, RunningDeployable>>;
  auth: AuthService;
  /** Signs in through the gateway and returns the session token. */
  signIn(email: string, password: string): Promise<string>;
  stop(): Promise<void>;
}

export interface StackOptions {
  /**
   * Which deployables to start besides the gateway, in this order (a service that calls another
   * comes after it). Default: auth and the e-mail worker; auth is always started first.
   */
  components?: ComponentName[];
  /** Extra environment for every component (e.g. tighter rate limits for one test). */
  env?: Record<string, string>;
  /** The broker refuses routing keys a deployable may not publish on this stack's exchange too (slower start). */
  restrictTopics?: boolean;
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const logLevel = process.env.TEST_LOG_LEVEL ?? 'silent';
  const names = options.components ?? ['auth', 'notifications'];
  const start: ComponentName[] = ['auth', ...names.filter((name) => name !== 'auth')];
  const harness = await startHarness({
    deployables: DEPLOYABLES,
    start,
    startGateway: startTestGateway,
    idPrefix: 'stack',
    logLevel,
    logger: (name) => createLogger(name, logLevel),
    // Tests run many sign-ins from one address; the limits are tested on their own with low values.
    env: { ...staffAccountsEnv(BOOTSTRAP), ...LIFTED_LIMITS, ...options.env },
    restrictTopics: options.restrictTopics,
  });
  return {
    api: harness.api,
    gatewayUrl: harness.gatewayUrl,
    mail: harness.mail,
    ...(harness.redsys ? { redsys: harness.redsys } : {}),
    mongoUrl: harness.infra.mongoUrl,
    amqpUrl: harness.infra.amqpUrl,
    busUrl: harness.busUrl,
    exchange: harness.env.EVENTS_EXCHANGE!,
    env: harness.env,
    envFor: harness.envFor,
    components: harness.running,
    auth: harness.running.auth!.handle as unknown as AuthService,
    signIn: harness.signIn,
    stop: harness.stop,
  };
}
