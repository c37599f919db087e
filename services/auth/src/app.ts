import { Redis } from 'ioredis';
import { durationToSeconds, signingKeyFromPem, tableRouter, TokenSigner, type Logger } from '@crm/server-kit';
import { createServiceRuntime, type ServiceHandle } from '@crm/server-kit/service';
import type { Role } from '@crm/contracts';
import { authHandlers } from './api/auth.routes';
import { mfaHandlers } from './api/mfa.routes';
import { signInMetrics } from './api/sign-in-metrics';
import { signingKeyMetrics } from './domain/signing-key-metrics';
import { privacyHandlers } from './api/privacy.routes';
import { staffHandlers } from './api/staff.routes';
import { signingKeyHandlers } from './api/signing-keys.routes';
import { usersHandlers } from './api/users.routes';
import { atRestKey, mfaRequiredRoles, type AuthConfig } from './config';
import { RedisMfaChallenges } from './data/mfa-challenge.store';
import { RedisFactorAttempts } from './data/redis-factor-attempts';
import { PatientDataClient } from './data/patient-data.client';
import { BookingCodeClient } from './data/booking-code.client';
import { CentreDaysClient } from './data/centre-days.client';
import { RedisOnboardingCodes } from './data/redis-onboarding-codes';
import { SecretBox } from './data/secret-box';
import { RedisAttemptLimiter } from './data/redis-attempt-limiter';
import { SessionRevocationStore } from './data/session-revocations';
import { MongoSigningKeyStore } from './data/signing-key.store';
import { userModels } from './data/user.model';
import { MongoUserRepository } from './data/user.repository';
import { AccountService } from './domain/account.service';
import { KioskService } from './domain/kiosk.service';
import { kioskSessionSeconds } from './domain/kiosk-session';
import { MfaService } from './domain/mfa.service';
import { PrivacyService } from './domain/privacy.service';
import { SigningKeyRing } from './domain/signing-key-ring';
import { StaffService } from './domain/staff.service';

/** The longest session a token may carry; a replaced signing key stays published this long (plus reloads). */
const MIN_KEY_RETENTION_SECONDS = 24 * 3600;
/** How often every replica reloads the signing keys (and the scheduled rotation is considered). */
const SIGNING_KEYS_RELOAD_MS = 60_000;
/** How long the centre's opening hours are used before they are read again (kiosk sessions). */
const CENTRE_DAYS_CACHE_MS = 5 * 60_000;

/** Wires the auth service: database, event outbox, Redis, routes. `start()` begins background work. */
export function createAuthService(config: AuthConfig, logger: Logger) {
  const ttlSeconds = durationToSeconds(config.JWT_TTL);
  // The only signer of session tokens: its keys live in its database, sealed with the at-rest key.
  const maxTokenSeconds = Math.max(ttlSeconds, MIN_KEY_RETENTION_SECONDS);
  // eslint-disable-next-line prefer-const -- the runtime's token check reads it once requests come
  let keyRing: SigningKeyRing;
  const runtime = createServiceRuntime('auth', config, logger, {
    verificationKeys: { get: (kid) => keyRing.get(kid), refresh: () => keyRing.refresh() },
  });
  keyRing = new SigningKeyRing(
    new MongoSigningKeyStore(runtime.connection, new SecretBox(atRestKey(config), 'token-signing-keys')),
    {
      rotationMs: config.JWT_KEY_ROTATION_DAYS * 86_400_000,
      retentionMs: maxTokenSeconds * 1000 + 2 * SIGNING_KEYS_RELOAD_MS,
      operatorKey: config.JWT_SIGNING_KEY ? signingKeyFromPem(config.JWT_SIGNING_KEY) : undefined,
    },
  );
  const tokens = new TokenSigner(() => keyRing.current(), ttlSeconds, maxTokenSeconds);
  runtime.every({
    name: 'token signing keys',
    intervalMs: SIGNING_KEYS_RELOAD_MS,
    run: () => keyRing.maintain(),
  });
  const models = userModels(runtime.connection);
  const redis = new Redis(config.REDIS_URL, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 500,
  });
  redis.on('error', () => undefined); // outages are handled where Redis is used

  const relay = runtime.outbox([models.User, models.RevokedSession]);

  const revocations = new SessionRevocationStore(models, redis, ttlSeconds, logger, runtime.kickOutbox);
  const users = new MongoUserRepository(models, runtime.kickOutbox);
  const factorGuard = { maxFailures: config.MFA_MAX_FAILURES, lockMs: config.MFA_LOCK_MINUTES * 60_000 };
  const mfa = new MfaService(
    users,
    new RedisMfaChallenges(redis, config.MFA_CHALLENGE_TTL_SECONDS),
    new SecretBox(atRestKey(config)),
    tokens,
    {
      issuer: config.MFA_ISSUER,
      requiredRoles: mfaRequiredRoles(config),
      guard: factorGuard,
    },
    new RedisFactorAttempts(redis, factorGuard),
  );
  const limiter = new RedisAttemptLimiter(redis);
  const centreDays = new CentreDaysClient(config.CONFIG_SERVICE_URL, {
    timeoutMs: config.UPSTREAM_TIMEOUT_MS,
    cacheMs: CENTRE_DAYS_CACHE_MS,
    logger,
  });
  // The kiosk's session ends at the centre's closing time, 12 hours at most (docs/product/kiosk.md#session).
  const sessionLength = async (user: { rol: Role }) =>
    user.rol === 'SERVICE_ACCOUNT' ? kioskSessionSeconds(new Date(), await centreDays.current()) : undefined;
  const accounts = new AccountService(
    users,
    revocations,
    tokens,
    limiter,
    {
      signInMaxAttempts: config.SIGNIN_MAX_ATTEMPTS,
      signInMaxAttemptsPerClient: config.SIGNIN_MAX_ATTEMPTS_PER_CLIENT,
      forgotPasswordMaxAttempts: config.FORGOT_PASSWORD_MAX_ATTEMPTS,
      resendConfirmationMaxAttempts: config.RESEND_CONFIRMATION_MAX_ATTEMPTS,
      resendConfirmationMaxAttemptsPerClient: config.RESEND_CONFIRMATION_MAX_ATTEMPTS_PER_CLIENT,
      attemptWindowSeconds: config.ATTEMPT_WINDOW_SECONDS,
      confirmationTtlMs: config.CONFIRMATION_TTL_HOURS * 3600_000,
      resetTtlMs: config.RESET_TTL_MINUTES * 60_000,
      invitationTtlMs: config.INVITATION_TTL_HOURS * 3600_000,
      staffInvitationTtlMs: config.STAFF_INVITATION_TTL_HOURS * 3600_000,
      mfaRequiredRoles: mfaRequiredRoles(config),
    },
    mfa,
    sessionLength,
  );
  const staff = new StaffService(users, accounts, revocations);
  const kiosk = new KioskService(
    users,
    accounts,
    new RedisOnboardingCodes(redis),
    new BookingCodeClient(config.APPOINTMENTS_SERVICE_URL, config.UPSTREAM_TIMEOUT_MS),
    limiter,
    {
      codeTtlMs: config.ONBOARDING_CODE_TTL_MINUTES * 60_000,
      codeMaxTries: config.ONBOARDING_CODE_MAX_TRIES,
      codeMaxSends: config.ONBOARDING_CODE_MAX_SENDS,
      windowSeconds: config.ATTEMPT_WINDOW_SECONDS,
      hashKey: atRestKey(config),
    },
  );
  const privacy = new PrivacyService(
    users,
    revocations,
    new PatientDataClient(
      config.APPOINTMENTS_SERVICE_URL,
      config.RECORDS_SERVICE_URL,
      config.UPSTREAM_TIMEOUT_MS,
    ),
    accounts,
  );
  const requireUser = runtime.requireUser((user) => accounts.isSessionValid(user));
  runtime.every({
    name: 'account search keys backfill',
    intervalMs: config.SEARCH_KEYS_BACKFILL_INTERVAL_MS,
    run: async () => {
      const keyed = await users.searchKeys.fill();
      if (keyed > 0) logger.info({ keyed }, 'accounts given their search keys');
    },
  });
  runtime.every({
    name: 'patient list',
    intervalMs: config.PATIENT_LIST_SYNC_INTERVAL_MS,
    run: async () => {
      await users.patients.sync();
      await users.patients.forgetOldMarks();
    },
  });
  runtime.every({
    name: 'ended sessions to Redis',
    intervalMs: config.SESSION_REDIS_SYNC_MS,
    run: () => revocations.syncToRedis(),
  });

  // Metrics: refused sign-ins and second-factor steps, and the signing key's age.
  const signIns = signInMetrics(runtime.metrics);
  signingKeyMetrics(runtime.metrics, keyRing, config.JWT_SIGNING_KEY ? 0 : config.JWT_KEY_ROTATION_DAYS);

  const bootstrapAccounts = (
    [
      ['ADMIN', 'Administrador', config.BOOTSTRAP_ADMIN_EMAIL, config.BOOTSTRAP_ADMIN_PASSWORD],
      ['DOCTOR', 'Doctor', config.BOOTSTRAP_DOCTOR_EMAIL, config.BOOTSTRAP_DOCTOR_PASSWORD],
      ['SERVICE_ACCOUNT', 'Kiosko', config.BOOTSTRAP_KIOSK_EMAIL, config.BOOTSTRAP_KIOSK_PASSWORD],
    ] as const
  ).filter(([, , email, password]) => email && password);

  const service = {
    app: runtime.httpApp(
      (router) => {
        const handlers = {
          ...authHandlers(accounts, runtime.audit, signIns),
          ...usersHandlers(accounts, kiosk, runtime.audit),
          ...staffHandlers(staff, runtime.audit),
          ...mfaHandlers(mfa, runtime.audit, signIns),
          ...privacyHandlers(privacy, runtime.audit),
          ...signingKeyHandlers(keyRing, runtime.audit),
        };
        router.use(tableRouter('auth', handlers, requireUser));
      },
      [{ name: 'signing keys', check: () => keyRing.isReady() }],
    ),
    signingKeys: keyRing,
    accounts,
    kiosk,
    models,
    relay,
    ...runtime.startAndStop({
      beforeStart: () => void redis.connect().catch(() => undefined),
      seed: async () => {
        await keyRing.start();
        for (const [rol, name, email, password] of bootstrapAccounts) {
          if (await accounts.ensureAccount({ rol: rol as Role, name, email: email!, password: password! })) {
            logger.info({ rol }, 'bootstrap account created');
          }
        }
      },
      beforeStop: () => redis.disconnect(),
    }),
  };
  return service satisfies ServiceHandle;
}

export type AuthService = ReturnType<typeof createAuthService>;
