import { z } from 'zod';

/** Secrets the development scripts use; production refuses to start with any of them. */
export const DEV_SECRET_PREFIX = 'dev-only-';

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
  /** How often each replica reloads the sessions ended through any replica (services that verify tokens). */
  ENDED_SESSIONS_POLL_MS: z.coerce.number().int().positive().default(1000),
  /** How long a dead-lettered message (which may name a patient) is kept in its `.dlq` queue. */
  DEAD_LETTER_TTL_HOURS: z.coerce.number().positive().default(336),
});

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the environment with the given schema, failing fast with every problem listed at once.
 * In production, development secrets are refused so a forgotten `.env` never reaches users.
 */
export function loadConfig<TSchema extends z.ZodObject>(
  schema: TSchema,
  env: NodeJS.ProcessEnv = process.env,
): z.infer<TSchema> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(result.error.issues.map((i) => `${i.path.join('.') || '(env)'}: ${i.message}`));
  }
  const config = result.data as Record<string, unknown>;
  if (config.NODE_ENV === 'production') {
    // Also inside URLs: `amqp://crm:dev-only-rabbitmq@…` carries a development password.
    const devSecrets = Object.entries(config)
      .filter(([key, value]) => /SECRET|PASSWORD|_KEY$|_URL$/.test(key) && typeof value === 'string')
      .filter(([key, value]) =>
        key.endsWith('_URL')
          ? (value as string).includes(DEV_SECRET_PREFIX)
          : (value as string).startsWith(DEV_SECRET_PREFIX),
      )
      .map(([key]) => `${key}: development default is not allowed in production`);
    if (devSecrets.length > 0) throw new ConfigError(devSecrets);
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
