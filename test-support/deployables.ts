/**
 * Every deployable the test harness (`@crm/testing`'s `startHarness`) can start, by name, created
 * exactly as its `main.ts` creates it: its configuration loaded from the stack's environment, then
 * its factory. The key of a service is the prefix of its URL setting (`auth` → AUTH_SERVICE_URL).
 * Loaded lazily, so a test file that starts two services does not load the others.
 */
import type { DeployableSpec, GatewayStarter } from '@crm/testing';
import { loadGatewayConfig } from '../gateway/src/config';
import { startGateway } from '../gateway/src/start-gateway';

export const DEPLOYABLES = {
  auth: {
    create: async (env, logger) => {
      const [{ createAuthService }, { loadAuthConfig }] = await Promise.all([
        import('../services/auth/src/app'),
        import('../services/auth/src/config'),
      ]);
      return createAuthService(loadAuthConfig(env), logger);
    },
  },
  config: {
    create: async (env, logger) => {
      const [{ createConfigService }, { loadConfigServiceConfig }] = await Promise.all([
        import('../services/config/src/app'),
        import('../services/config/src/config'),
      ]);
      return createConfigService(loadConfigServiceConfig(env), logger);
    },
  },
  appointments: {
    create: async (env, logger) => {
      const [{ createAppointmentsService }, { loadAppointmentsConfig }] = await Promise.all([
        import('../services/appointments/src/app'),
        import('../services/appointments/src/config'),
      ]);
      return createAppointmentsService(loadAppointmentsConfig(env), logger);
    },
  },
  rooms: {
    create: async (env, logger) => {
      const [{ createRoomsService }, { loadRoomsConfig }] = await Promise.all([
        import('../services/rooms/src/app'),
        import('../services/rooms/src/config'),
      ]);
      return createRoomsService(loadRoomsConfig(env), logger);
    },
  },
  records: {
    create: async (env, logger) => {
      const [{ createRecordsService }, { loadRecordsConfig }] = await Promise.all([
        import('../services/records/src/app'),
        import('../services/records/src/config'),
      ]);
      return createRecordsService(loadRecordsConfig(env), logger);
    },
  },
  audit: {
    create: async (env, logger) => {
      const [{ createAuditService }, { loadAuditConfig }] = await Promise.all([
        import('../services/audit/src/app'),
        import('../services/audit/src/config'),
      ]);
      return createAuditService(loadAuditConfig(env), logger);
    },
  },
  reporting: {
    create: async (env, logger) => {
      const [{ createReportingService }, { loadReportingConfig }] = await Promise.all([
        import('../services/reporting/src/app'),
        import('../services/reporting/src/config'),
      ]);
      return createReportingService(loadReportingConfig(env), logger);
    },
  },
  payments: {
    create: async (env, logger) => {
      const [{ createPaymentsService }, { loadPaymentsConfig }] = await Promise.all([
        import('../services/payments/src/app'),
        import('../services/payments/src/config'),
      ]);
      return createPaymentsService(loadPaymentsConfig(env), logger);
    },
  },
  /** The e-mail worker: no HTTP but its probes. */
  notifications: {
    http: false,
    create: async (env, logger) => {
      const [{ createNotificationsService }, { loadNotificationsConfig }] = await Promise.all([
        import('../services/notifications/src/app'),
        import('../services/notifications/src/config'),
      ]);
      return createNotificationsService(loadNotificationsConfig(env), logger);
    },
  },
} satisfies Record<string, DeployableSpec>;

export type DeployableName = keyof typeof DEPLOYABLES;

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
};

export type StaffAccounts = Record<'admin' | 'doctor' | 'kiosk', { email: string; password: string }>;

/** The bootstrap staff accounts of a test stack, their e-mail addresses under `domain`. */
export const staffAccountsAt = (domain: string): StaffAccounts => ({
  admin: { email: `admin@${domain}`, password: 'Admin1234!' },
  doctor: { email: `doctor@${domain}`, password: 'Doctor1234!' },
  kiosk: { email: `kiosk@${domain}`, password: 'Kiosk1234!' },
});

/** The bootstrap staff accounts of a stack, as environment. */
export function staffAccountsEnv(accounts: StaffAccounts) {
  return {
    BOOTSTRAP_ADMIN_EMAIL: accounts.admin.email,
    BOOTSTRAP_ADMIN_PASSWORD: accounts.admin.password,
    BOOTSTRAP_DOCTOR_EMAIL: accounts.doctor.email,
    BOOTSTRAP_DOCTOR_PASSWORD: accounts.doctor.password,
    BOOTSTRAP_KIOSK_EMAIL: accounts.kiosk.email,
    BOOTSTRAP_KIOSK_PASSWORD: accounts.kiosk.password,
  };
}
