import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { DEFAULT_METRICS_ALLOW_CIDRS, isValidAllowList } from './metrics/allow-list';

/** Secrets the development scripts use; an exposed or production process refuses any of them. */
export const DEV_SECRET_PREFIX = 'dev-only-';

/** True for addresses only this machine can reach (127.0.0.0/8, ::1, localhost). */
export function isLoopbackHost(host: string): boolean {
  const bare = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/**
 * Whether a process must hold real secrets: in production, and whenever it listens where other
 * machines can reach it, whatever NODE_ENV says (a development start on 0.0.0.0 is not safe either).
 */
export function needsRealSecrets(config: { NODE_ENV?: string; HOST?: string }): boolean {
  return config.NODE_ENV === 'production' || (config.HOST !== undefined && !isLoopbackHost(config.HOST));
}

/** How long a database read may run unless `QUERY_MAX_TIME_MS` says (under the gateway's 15 s). */
export const DEFAULT_QUERY_MAX_TIME_MS = 14_000;

/** Variables every back-end process shares. Services extend this with their own. */
export const baseEnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Where the auth service, the only signer of session tokens, publishes their public keys
   * (`/auth/.well-known/jwks.json`); every other deployable verifies with those and holds no secret.
   */
  AUTH_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4001'),
  /** A fixed JWKS document to trust instead (stacks without the auth service: tests, benchmarks). */
  JWT_PUBLIC_KEYS: z.string().optional(),
  JWT_TTL: z
    .string()
    .regex(/^\d+[smhd]?$/, 'must look like 900, 15m, 8h or 1d')
    .default('8h'),
  /**
   * Who may read `GET /metrics`: addresses and CIDR ranges, comma-separated (default loopback and
   * the private networks; a request with a forwarding header is refused whatever its address).
   */
  METRICS_ALLOW_CIDRS: z
    .string()
    .refine(isValidAllowList, 'must be IPv4/IPv6 addresses or CIDR ranges, comma-separated')
    .default(DEFAULT_METRICS_ALLOW_CIDRS),
});

/** What every service with a database and the event bus needs on top of the base. */
export const serviceEnvSchema = baseEnvSchema.extend({
  /**
   * Interface to listen on. Only the gateway faces clients: under `npm start` services listen on
   * 127.0.0.1; containers (docker compose, Kubernetes) set 0.0.0.0 and rely on network policies.
   */
  HOST: z.string().min(1).default('127.0.0.1'),
  MONGO_URL: z.string().regex(/^mongodb(\+srv)?:\/\//, 'must be a mongodb:// URL'),
  AMQP_URL: z.string().regex(/^amqps?:\/\//, 'must be an amqp:// URL'),
  EVENTS_EXCHANGE: z.string().min(1).default('crm.events'),
  /** Prefix of this deployment's consumer queues (`<prefix>.<service>.<purpose>`); tests use their own. */
  QUEUE_PREFIX: z.string().min(1).default('crm'),
  /**
   * How long the database may spend on one read (find, count, aggregate) before it stops
   * it: under the gateway's `PROXY_TIMEOUT_MS` (15 s), so a read nobody waits for any more does not
   * keep running (and a second try does not pile up behind it). The caller gets a 503.
   */
  QUERY_MAX_TIME_MS: z.coerce.number().int().positive().default(DEFAULT_QUERY_MAX_TIME_MS),
  /** How often each replica reloads the sessions ended through any replica (services that verify tokens). */
  ENDED_SESSIONS_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** How long a dead-lettered message (which may name a patient) is kept in its `.dlq` queue. */
  DEAD_LETTER_TTL_HOURS: z.coerce.number().positive().default(336),
  /**
   * Attempts and waits of the consumers that set none of their own (default 5, and 1 s, 5 s, 15 s,
   * 60 s): `CONSUMER_RETRY_DELAYS_MS=200,500` is a comma-separated list of milliseconds.
   */
  CONSUMER_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).optional(),
  CONSUMER_RETRY_DELAYS_MS: z
    .string()
    .regex(/^\d{1,7}(,\d{1,7}){0,9}$/, 'must be milliseconds separated by commas, e.g. 1000,5000')
    .transform((value) => value.split(',').map(Number))
    .optional(),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * `NAME_FILE=/path` stands for `NAME=<that file's content>` (Docker and Kubernetes secrets are files);
 * a value given directly wins. Only names the schema knows are read.
 */
function withFileValues(schema: z.ZodObject, env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const resolved: NodeJS.ProcessEnv = { ...env };
  const problems: string[] = [];
  for (const name of Object.keys(schema.shape)) {
    const file = env[`${name}_FILE`];
    if (!file || env[name] !== undefined) continue;
    try {
      resolved[name] = readFileSync(file, 'utf8').trimEnd();
    } catch (error) {
      problems.push(
        `${name}_FILE: cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return resolved;
}

const SECRET_NAME = /SECRET|PASSWORD|_KEY$|_URL$/;

/** Names whose value is a development default (for URLs: carries one, `amqp://crm:dev-only-…@…`). */
function developmentSecrets(config: Record<string, unknown>): string[] {
  return Object.entries(config)
    .filter(([key, value]) => SECRET_NAME.test(key) && typeof value === 'string')
    .filter(([key, value]) =>
      key.endsWith('_URL')
        ? (value as string).includes(DEV_SECRET_PREFIX)
        : (value as string).startsWith(DEV_SECRET_PREFIX),
    )
    .map(([key]) => key);
}

/**
 * Parses the environment with the given schema, failing fast with every problem listed at once.
 * A process that needs real secrets (`needsRealSecrets`) refuses development values and starts only
 * with every name of `requiredSecrets` set, so a forgotten `.env` never reaches other machines.
 */
export function loadConfig<TSchema extends z.ZodObject>(
  schema: TSchema,
  env: NodeJS.ProcessEnv = process.env,
  requiredSecrets: readonly (keyof z.infer<TSchema> & string)[] = [],
): z.infer<TSchema> {
  const result = schema.safeParse(withFileValues(schema, env));
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const config = result.data as Record<string, unknown>;
  if (needsRealSecrets(config)) {
    const where = `when listening on ${String(config.HOST ?? 'any address')} or in production`;
    const problems = [
      ...developmentSecrets(config).map((key) => `${key}: a development value is not allowed ${where}`),
      ...requiredSecrets
        .filter((key) => config[key] === undefined || config[key] === '')
        .map((key) => `${key}: required ${where}`),
    ];
    if (problems.length > 0) throw new ConfigError(problems);
  }
  return result.data;
}

/** Reads a duration like "15m" or "8h" (or plain seconds) as seconds. */
export function durationToSeconds(value: string): number {
  const match = /^(\d+)([smhd]?)$/.exec(value);
  if (!match) throw new Error(`Invalid duration: ${value}`);
  const factor = { '': 1, s: 1, m: 60, h: 3600, d: 86400 }[match[2] as '' | 's' | 'm' | 'h' | 'd'];
  return Number(match[1]) * factor;
}
