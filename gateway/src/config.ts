import path from 'node:path';
import { z } from 'zod';
import { configCacheEnvSchema } from './config-cache';
import { baseEnvSchema, loadConfig } from '@crm/server-kit';

/** Reads "100kb", "1mb", "512" (bytes) as a number of bytes. */
export function parseByteSize(value: string): number {
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(value.trim());
  if (!match) throw new Error(`Invalid size: ${value}`);
  const factor = { b: 1, kb: 1024, mb: 1024 * 1024 }[(match[2] ?? 'b').toLowerCase() as 'b' | 'kb' | 'mb'];
  return Number(match[1]) * factor;
}

const url = z.url({ protocol: /^https?$/ });
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/**
 * Every setting of the gateway, from the environment. Defaults fit `npm start` on one machine
 * (services on 127.0.0.1:4001-4006); the rate-limit defaults are documented in gateway/README.md.
 */
export const gatewayEnvSchema = baseEnvSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    /** Loopback unless told otherwise: a laptop's gateway is not reachable from its network by accident. */
    HOST: z.string().min(1).default('127.0.0.1'),

    AUTH_SERVICE_URL: url.default('http://127.0.0.1:4001'),
    APPOINTMENTS_SERVICE_URL: url.default('http://127.0.0.1:4002'),
    RECORDS_SERVICE_URL: url.default('http://127.0.0.1:4003'),
    ROOMS_SERVICE_URL: url.default('http://127.0.0.1:4004'),
    CONFIG_SERVICE_URL: url.default('http://127.0.0.1:4005'),
    AUDIT_SERVICE_URL: url.default('http://127.0.0.1:4006'),
    REPORTING_SERVICE_URL: url.default('http://127.0.0.1:4007'),
    PAYMENTS_SERVICE_URL: url.default('http://127.0.0.1:4008'),
    /** The card gateway's payment page, the one other place the shell may post a form to (CSP form-action). */
    REDSYS_URL: url.optional(),
    /** Upper bound for one upstream exchange (connect + answer); past it the client gets 504. */
    PROXY_TIMEOUT_MS: positiveInt(15000),
    /** Keep-alive sockets per upstream; sized well above the 50 concurrent clients we measure with. */
    UPSTREAM_MAX_SOCKETS: positiveInt(256),

    REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
    /** Every Redis command gives up after this; a slow Redis must never slow the proxy down. */
    REDIS_COMMAND_TIMEOUT_MS: positiveInt(250),
    /**
     * How long a "session still valid" answer from Redis is reused (0: ask on every request). The auth
     * service announces every ended session, which makes the gateway forget all such answers at once
     * (session-check.ts), so this bounds the delay only if an announcement were lost.
     */
    SESSION_CHECK_CACHE_MS: z.coerce.number().int().min(0).max(60_000).default(5_000),

    /** Global limit: requests per client address per window, on every /api route. */
    RATE_LIMIT_WINDOW_MS: positiveInt(60_000),
    RATE_LIMIT_MAX: positiveInt(600),
    /**
     * The global limit is counted in each gateway's memory and added to the shared count in Redis at
     * most this often per client (every replica learns the others' counts then): replicas together
     * may let through, over the limit, what reaches the others within this interval.
     */
    RATE_LIMIT_SYNC_MS: z.coerce.number().int().min(0).max(60_000).default(100),
    /**
     * Stricter limits per client address and route on the sign-in family. Sign-in counts only
     * failed attempts (a clinic's patients signing in over one Wi-Fi never add up); sign-up,
     * forgot-password and resend-confirmation count every call (they send e-mails).
     */
    RATE_LIMIT_AUTH_WINDOW_MS: positiveInt(15 * 60_000),
    RATE_LIMIT_AUTH_MAX: positiveInt(20),
    RATE_LIMIT_SIGNIN_FAILURES_MAX: positiveInt(30),
    /** Doctor and admin sessions end after this many minutes without activity (0: never). */
    STAFF_IDLE_TIMEOUT_MINUTES: z.coerce.number().min(0).default(15),
    /** Namespace of the counters in Redis, for gateways of different deployments sharing one Redis. */
    RATE_LIMIT_REDIS_PREFIX: z.string().min(1).default('rl:gateway:'),

    /** Requests announcing a larger Content-Length are refused with 413 before reaching a service. */
    BODY_LIMIT: z
      .string()
      .default('100kb')
      .refine((v) => /^\d+\s*(b|kb|mb)?$/i.test(v.trim()), 'must look like 100kb, 1mb or 2048'),
    /** Origins allowed to call the API cross-origin, comma separated. Same origin needs none. */
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((v) =>
        v
          .split(',')
          .map((o) => o.trim().replace(/\/+$/, ''))
          .filter(Boolean),
      ),
    /**
     * How many reverse proxies in front of the gateway are trusted to set X-Forwarded-For/-Proto.
     * 0 (default): the client address is the socket's, and client-sent forwarding headers are replaced.
     */
    TRUST_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),

    FRONTENDS_DIR: z.string().default(path.resolve(__dirname, '../../frontends')),
  })
  .extend(configCacheEnvSchema.shape);

export type GatewayConfig = z.infer<typeof gatewayEnvSchema> & { bodyLimitBytes: number };

export function loadGatewayConfig(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const config = loadConfig(gatewayEnvSchema, env);
  return { ...config, bodyLimitBytes: parseByteSize(config.BODY_LIMIT) };
}
