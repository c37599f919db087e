import { z } from 'zod';
import type { Role } from '@crm/contracts';
import { ConfigError, loadConfig, needsRealSecrets, serviceEnvSchema } from '@crm/server-kit';
import { isCommonPassword, isPublishedPassword } from './domain/password-policy';

const optionalEmail = z.string().trim().toLowerCase().pipe(z.email()).optional();
const optionalPassword = z.string().min(8).optional();

export const authEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4001),
  MONGO_DB: z.string().min(1).default('auth'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//)
    .default('redis://127.0.0.1:6379'),
  BOOTSTRAP_ADMIN_EMAIL: optionalEmail,
  BOOTSTRAP_ADMIN_PASSWORD: optionalPassword,
  BOOTSTRAP_DOCTOR_EMAIL: optionalEmail,
  BOOTSTRAP_DOCTOR_PASSWORD: optionalPassword,
  BOOTSTRAP_KIOSK_EMAIL: optionalEmail,
  BOOTSTRAP_KIOSK_PASSWORD: optionalPassword,
  /**
   * Failed sign-ins per account and client address, then per client address, in the window (the
   * gateway limits per client as well).
   */
  SIGNIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(10),
  SIGNIN_MAX_ATTEMPTS_PER_CLIENT: z.coerce.number().int().positive().default(50),
  FORGOT_PASSWORD_MAX_ATTEMPTS: z.coerce.number().int().positive().default(3),
  RESEND_CONFIRMATION_MAX_ATTEMPTS: z.coerce.number().int().positive().default(3),
  RESEND_CONFIRMATION_MAX_ATTEMPTS_PER_CLIENT: z.coerce.number().int().positive().default(20),
  ATTEMPT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  CONFIRMATION_TTL_HOURS: z.coerce.number().positive().default(48),
  RESET_TTL_MINUTES: z.coerce.number().positive().default(60),
  /** How often ended sessions are written to Redis again (the gateway's copy, after a Redis outage). */
  SESSION_REDIS_SYNC_MS: z.coerce.number().int().positive().default(30_000),
  /** How often accounts made before they carried search keys are given them (2 000 a pass). */
  SEARCH_KEYS_BACKFILL_INTERVAL_MS: z.coerce.number().int().positive().default(10_000),
  /** How often the patient list reads the other replicas' changes (`patient-list.ts`). */
  PATIENT_LIST_SYNC_INTERVAL_MS: z.coerce.number().int().positive().default(10_000),
  /** Validity of the set-your-password link e-mailed to patients registered by staff or at the kiosk. */
  INVITATION_TTL_HOURS: z.coerce.number().positive().default(168),
  /** Validity of the link a new doctor or admin gets: shorter, since it opens a staff account. */
  STAFF_INVITATION_TTL_HOURS: z.coerce.number().positive().default(48),
  /**
   * Roles that must set up the second factor at their next sign-in, comma separated.
   * Default: `DOCTOR,ADMIN` in production, none elsewhere (`mfaRequiredRoles`).
   */
  MFA_REQUIRED_ROLES: z
    .string()
    .regex(
      /^\s*((PACIENT|DOCTOR|ADMIN)\s*(,\s*(PACIENT|DOCTOR|ADMIN)\s*)*)?$/,
      'must list roles: DOCTOR,ADMIN',
    )
    .optional(),
  /** The name authenticator apps show next to the account. */
  MFA_ISSUER: z.string().min(1).default('Centro de Reconocimiento Médico'),
  /** How long the `mfaToken` of a sign-in waits for its code (or for the enrolment). */
  MFA_CHALLENGE_TTL_SECONDS: z.coerce.number().int().positive().default(300),
  /**
   * The auth service's at-rest key: seals the authenticator secrets and the token signing keys
   * stored in the database (AES-256-GCM, one derived key each). Required in production and on any
   * non-loopback HOST; on a loopback development start, absent, a development value is used.
   */
  MFA_ENCRYPTION_KEY: z.string().min(32, 'must be at least 32 characters').optional(),
  /**
   * The operator's token signing key (RSA private key, PEM, ≥ 2048 bits), when keys are managed
   * outside: it becomes the current key the first time it is seen and there is no scheduled
   * rotation (change the variable to rotate). Absent: the service makes and rotates its own keys.
   */
  JWT_SIGNING_KEY: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().includes('PRIVATE KEY', { message: 'must be a PEM private key' }).optional(),
  ),
  /** Age at which the current signing key is replaced by a new one (0: never). */
  JWT_KEY_ROTATION_DAYS: z.coerce.number().min(0).default(30),
  /** Wrong codes in a row (any challenge, any address) that lock an account's second factor. */
  MFA_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  /** How long the lock lasts after the last wrong code (the password keeps working). */
  MFA_LOCK_MINUTES: z.coerce.number().positive().default(60),
  /**
   * The kiosk's one-time codes (docs/product/kiosk.md#proof): how long one lives, how many wrong
   * tries kill it, and how many are e-mailed to one address per `ATTEMPT_WINDOW_SECONDS`.
   */
  ONBOARDING_CODE_TTL_MINUTES: z.coerce.number().positive().default(10),
  ONBOARDING_CODE_MAX_TRIES: z.coerce.number().int().positive().default(5),
  ONBOARDING_CODE_MAX_SENDS: z.coerce.number().int().positive().default(3),
  /** Where the centre profile's opening hours are read: a kiosk session ends at closing time. */
  CONFIG_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4005'),
  /**
   * Where a patient's appointments and records are read for the copy of their data
   * (`/users/me/export`), and where the kiosk's booking codes are checked.
   */
  APPOINTMENTS_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4002'),
  RECORDS_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4003'),
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
});

export type AuthConfig = z.infer<typeof authEnvSchema>;

const BOOTSTRAP_PASSWORDS = [
  'BOOTSTRAP_ADMIN_PASSWORD',
  'BOOTSTRAP_DOCTOR_PASSWORD',
  'BOOTSTRAP_KIOSK_PASSWORD',
] as const;

/**
 * Exposed or in production, the at-rest key is required and the staff accounts created at start-up
 * may not use a published or common password.
 */
export function loadAuthConfig(env: NodeJS.ProcessEnv = process.env): AuthConfig {
  const config = loadConfig(authEnvSchema, env, ['MFA_ENCRYPTION_KEY']);
  if (!needsRealSecrets(config)) return config;
  const weak = BOOTSTRAP_PASSWORDS.filter((key) => {
    const password = config[key];
    return password !== undefined && (isPublishedPassword(password) || isCommonPassword(password));
  });
  if (weak.length > 0)
    throw new ConfigError(
      weak.map(
        (key) =>
          `${key}: a published or common password is not allowed when listening on ${config.HOST} or in production`,
      ),
    );
  return config;
}

/** The development at-rest key, for loopback starts without `MFA_ENCRYPTION_KEY` (refused when exposed). */
const DEV_AT_REST_KEY = 'dev-only-auth-at-rest-key-0123456789abcdef';

export function atRestKey(config: Pick<AuthConfig, 'MFA_ENCRYPTION_KEY'>): string {
  return config.MFA_ENCRYPTION_KEY ?? DEV_AT_REST_KEY;
}

/** The roles that must use a second factor (see `MFA_REQUIRED_ROLES`). */
export function mfaRequiredRoles(config: Pick<AuthConfig, 'MFA_REQUIRED_ROLES' | 'NODE_ENV'>): Role[] {
  const listed = config.MFA_REQUIRED_ROLES ?? (config.NODE_ENV === 'production' ? 'DOCTOR,ADMIN' : '');
  return listed
    .split(',')
    .map((role) => role.trim())
    .filter((role): role is Role => role.length > 0);
}
