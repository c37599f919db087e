import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { brokerPasswordVariable, BUS_PARTICIPANTS } from '@crm/contracts';
import { ensureDir, infraDir, machineSecretsFile, REPO_ROOT } from './paths';

/**
 * Secrets `npm start` and `npm test` need and nobody may know in advance: made at random once per
 * machine and kept outside the repository, so no published value can open the auth service's secrets
 * at rest (the second factor's, and the token signing keys it makes for itself) on a developer's
 * machine. There is no shared token secret: only the auth service signs, with keys of its own.
 * Each deployable's RabbitMQ password (`RABBITMQ_<NAME>_PASSWORD`) is one of them: infra-up creates
 * the broker users with them, `npm start` and the tests' harness connect each deployable as its own.
 */
const LOCAL_SECRET_NAMES = ['MFA_ENCRYPTION_KEY', ...BUS_PARTICIPANTS.map(brokerPasswordVariable)];

/**
 * Per machine, not per checkout: the local infrastructure they open is the machine's (its databases
 * keep the auth service's keys sealed with MFA_ENCRYPTION_KEY; its broker has one user per
 * deployable), so a second checkout on the same machine must use the same values. The path is
 * LOCAL_SECRETS_FILE, else ~/.local/state/crm-platform/secrets.env; a checkout's older
 * `.infra/secrets.env` is taken over the first time.
 */
export function localSecretsFile(): string {
  const file = process.env.LOCAL_SECRETS_FILE || machineSecretsFile();
  const older = path.join(infraDir(), 'secrets.env');
  if (!fs.existsSync(file) && fs.existsSync(older)) {
    ensureDir(path.dirname(file));
    fs.copyFileSync(older, file);
    fs.chmodSync(file, 0o600);
  }
  return file;
}

/** The machine's random secrets, made (readable by the owner only) the first time they are asked for. */
export function localSecrets(file: string = localSecretsFile()): Record<string, string> {
  const stored = readDotEnv(file);
  // Only the names still in use (an older file may hold a JWT_SECRET nobody reads any more).
  const secrets: Record<string, string> = {};
  for (const name of LOCAL_SECRET_NAMES) if (stored[name]) secrets[name] = stored[name];
  const missing = LOCAL_SECRET_NAMES.filter((name) => !secrets[name]);
  if (missing.length === 0) return secrets;
  for (const name of missing) secrets[name] = randomBytes(48).toString('base64url');
  const lines = Object.entries(secrets).map(([name, value]) => `${name}=${value}\n`);
  const scratch = `${file}.${process.pid}.tmp`;
  ensureDir(path.dirname(file));
  fs.writeFileSync(
    scratch,
    ['# Made for this machine by npm start / npm test. Never commit.\n', ...lines].join(''),
    {
      mode: 0o600,
    },
  );
  try {
    if (fs.existsSync(file)) {
      fs.renameSync(scratch, file); // an older file lacked a name: the same values plus the new one
    } else {
      fs.linkSync(scratch, file); // two processes starting at once: the first file in place wins
    }
    return secrets;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return localSecrets(file);
  } finally {
    fs.rmSync(scratch, { force: true });
  }
}

export interface DevEnvOptions {
  /** NODE_ENV default; `null` leaves NODE_ENV out (jest sets `test` itself). Default `development`. */
  nodeEnv?: string | null;
}

/**
 * The single source of the local development defaults (`npm start`, `npm test`, `.env.example`).
 * PORT is deliberately absent: each workspace takes its own port from its config.
 */
export function devEnvDefaults(options: DevEnvOptions = {}): Record<string, string> {
  const nodeEnv = options.nodeEnv === undefined ? 'development' : options.nodeEnv;
  const defaults: Record<string, string> = {
    MONGO_URL: 'mongodb://127.0.0.1:27017',
    AMQP_URL: 'amqp://guest:guest@127.0.0.1:5672',
    REDIS_URL: 'redis://127.0.0.1:6379',
    SMTP_URL: 'smtp://127.0.0.1:1025',
    // Mailpit's HTTP API (GET /api/v1/messages, GET /api/v1/message/{ID}), read by tests.
    MAILPIT_URL: 'http://127.0.0.1:8025',
    MAIL_FROM: 'Centro de Reconocimiento Médico <citas@example.test>',
    PUBLIC_URL: 'http://127.0.0.1:8080',
    JWT_TTL: '8h',
    AUTH_SERVICE_URL: 'http://127.0.0.1:4001',
    APPOINTMENTS_SERVICE_URL: 'http://127.0.0.1:4002',
    RECORDS_SERVICE_URL: 'http://127.0.0.1:4003',
    ROOMS_SERVICE_URL: 'http://127.0.0.1:4004',
    CONFIG_SERVICE_URL: 'http://127.0.0.1:4005',
    AUDIT_SERVICE_URL: 'http://127.0.0.1:4006',
    REPORTING_SERVICE_URL: 'http://127.0.0.1:4007',
    PAYMENTS_SERVICE_URL: 'http://127.0.0.1:4008',
    // The e-mail worker's probes and internal status, read by "Estado del sistema".
    NOTIFICATIONS_SERVICE_URL: 'http://127.0.0.1:4010',
    // The local Redsys simulator (npm run infra:up starts it) and the sandbox merchant it accepts.
    REDSYS_URL: 'http://127.0.0.1:4090',
    REDSYS_MERCHANT_CODE: '999008881',
    REDSYS_TERMINAL: '1',
    REDSYS_SECRET_KEY: 'sq7HjrUOBfKmC576ILgskD5srU870gJ7',
    BOOTSTRAP_ADMIN_EMAIL: 'admin@crm.local',
    BOOTSTRAP_ADMIN_PASSWORD: 'Admin1234!',
    BOOTSTRAP_DOCTOR_EMAIL: 'doctor@crm.local',
    BOOTSTRAP_DOCTOR_PASSWORD: 'Doctor1234!',
    BOOTSTRAP_KIOSK_EMAIL: 'kiosk@crm.local',
    BOOTSTRAP_KIOSK_PASSWORD: 'Kiosk1234!',
  };
  if (nodeEnv !== null) defaults.NODE_ENV = nodeEnv;
  return defaults;
}

function isUnset(value: string | undefined): boolean {
  return value === undefined || value === '';
}

/** Variables from `<root>/.env` if that file exists (never committed; see .env.example). */
export function readDotEnv(file: string = path.join(REPO_ROOT, '.env')): Record<string, string> {
  if (!fs.existsSync(file)) return {};
  const parsed = parseEnv(fs.readFileSync(file, 'utf8')) as Record<string, string | undefined>;
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(parsed)) if (value !== undefined) out[key] = value;
  return out;
}

export interface ApplyDevEnvOptions extends DevEnvOptions {
  /** Also take values from `<root>/.env` (before the defaults). Default true. */
  dotEnv?: boolean;
  /** Where the random secrets are kept (default: localSecretsFile()). */
  secretsFile?: string;
}

/**
 * Fills every variable that is unset (or empty) in `env` — first from `.env`, then from this
 * machine's random secrets, then from the development defaults — and returns `env`. Values already set are never changed.
 */
export function applyDevEnv(
  env: NodeJS.ProcessEnv = process.env,
  options: ApplyDevEnvOptions = {},
): NodeJS.ProcessEnv {
  const sources = [
    options.dotEnv === false ? {} : readDotEnv(),
    localSecrets(options.secretsFile),
    devEnvDefaults(options),
  ];
  for (const source of sources) {
    for (const [key, value] of Object.entries(source)) {
      if (isUnset(env[key])) env[key] = value;
    }
  }
  return env;
}

/** A copy of `base` with the development defaults applied (for child processes). */
export function withDevEnv(
  base: NodeJS.ProcessEnv = process.env,
  options: ApplyDevEnvOptions = {},
): NodeJS.ProcessEnv {
  return applyDevEnv({ ...base }, options);
}
