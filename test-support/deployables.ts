/**
 * Every deployable the test harness (`@crm/testing`'s `startHarness`) can start, by name, created
 * exactly as its `main.ts` creates it: its configuration loaded from the stack's environment, then
 * its factory. The key of a service is the prefix of its URL setting (`auth` → AUTH_SERVICE_URL).
 * Loaded lazily, so a test file that starts two services does not load the others.
 */
import type { DeployableSpec, GatewayStarter } from '@crm/testing';
import type { Logger } from '@crm/server-kit';
import type { ServiceHandle } from '@crm/server-kit/service';
import { loadGatewayConfig } from '../gateway/src/config';
import { startGateway } from '../gateway/src/start-gateway';
import { CONFIG_LOADERS } from './config-loaders';

/**
 * Each service's factory (exported by `services/<name>/src/app.ts`); with its configuration loader
 * (CONFIG_LOADERS), the two its `main.ts` hands to `runService`.
 */
const SERVICES = {
  auth: { factory: 'createAuthService' },
  config: { factory: 'createConfigService' },
  appointments: { factory: 'createAppointmentsService' },
  rooms: { factory: 'createRoomsService' },
  records: { factory: 'createRecordsService' },
  audit: { factory: 'createAuditService' },
  reporting: { factory: 'createReportingService' },
  payments: { factory: 'createPaymentsService' },
  /** The e-mail worker: no HTTP but its probes. */
  notifications: { factory: 'createNotificationsService', http: false },
} as const;

export type DeployableName = keyof typeof SERVICES;

interface ServiceEntry {
  factory: string;
  http?: boolean;
}

/** A deployable of the harness whose factory gives the service's handle. */
interface ServiceSpec extends DeployableSpec {
  create(env: NodeJS.ProcessEnv, logger: Logger): Promise<ServiceHandle>;
}

type ServiceFactory = (config: unknown, logger: Logger) => ServiceHandle;

/** The one lazy import: a service's app module, and the factory it exports. */
async function createService(name: DeployableName, env: NodeJS.ProcessEnv, logger: Logger) {
  const { factory }: ServiceEntry = SERVICES[name];
  const app = (await import(`../services/${name}/src/app`)) as Record<string, ServiceFactory | undefined>;
  const create = app[factory];
  if (!create)
    throw new Error(`test-support/deployables.ts: services/${name}/src/app.ts must export ${factory}`);
  return create(CONFIG_LOADERS[name]!(env), logger);
}

export const DEPLOYABLES = Object.fromEntries(
  Object.entries(SERVICES as Record<DeployableName, ServiceEntry>).map(([name, { http = true }]) => [
    name,
    {
      http,
      create: (env: NodeJS.ProcessEnv, logger: Logger) => createService(name as DeployableName, env, logger),
    },
  ]),
) as Record<DeployableName, ServiceSpec>;

/** The gateway as `gateway/src/main.ts` starts it (config cache included), on a free port. */
export const startTestGateway: GatewayStarter = (env, options) =>
  startGateway(loadGatewayConfig(env), options);

/** Limits lifted for suites that make thousands of calls from one address (the limits have tests of their own). */
export const LIFTED_LIMITS = {
  RATE_LIMIT_MAX: '1000000',
  RATE_LIMIT_AUTH_MAX: '1000000',
  RATE_LIMIT_SIGNIN_FAILURES_MAX: '1000000',
  SIGNIN_MAX_ATTEMPTS: '100000',
  SIGNIN_MAX_ATTEMPTS_PER_CLIENT: '1000000',
  FORGOT_PASSWORD_MAX_ATTEMPTS: '100000',
  RESEND_CONFIRMATION_MAX_ATTEMPTS: '100000',
  RESEND_CONFIRMATION_MAX_ATTEMPTS_PER_CLIENT: '1000000',
  ONBOARDING_CODE_MAX_SENDS: '100000',
};
