import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

const serviceUrl = (fallback: string) => z.url({ protocol: /^https?$/ }).default(fallback);

export const recordsEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4003),
  MONGO_DB: z.string().min(1).default('records'),
  /** The doctor's name (`GET /auth/currentUser`). */
  AUTH_SERVICE_URL: serviceUrl('http://127.0.0.1:4001'),
  /** The appointment and its patient (`GET /dates/id/:id`). */
  APPOINTMENTS_SERVICE_URL: serviceUrl('http://127.0.0.1:4002'),
  /** The form configuration records are validated against (`GET /config/view`). */
  CONFIG_SERVICE_URL: serviceUrl('http://127.0.0.1:4005'),
  /** Upper bound of one call to another service; past it the request answers 503. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /**
   * How long a fetched configuration is trusted without hearing `config.view.updated.v1`: the
   * event drops it at once; this bounds staleness if an event is ever lost.
   */
  VIEW_CONFIG_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  /** Records of patients who erased their account are deleted this long after they were made (Ley 41/2002: ≥ 5). */
  RECORDS_RETENTION_YEARS: z.coerce.number().min(5).default(5),
  /** How often that is looked for. */
  RECORDS_RETENTION_SWEEP_MS: z.coerce
    .number()
    .int()
    .positive()
    .default(24 * 3_600_000),
  /** How often the list's per-day counts are brought up to date (and entries without a day given one). */
  DAY_COUNTS_INTERVAL_MS: z.coerce.number().int().positive().default(10_000),
});

export type RecordsConfig = z.infer<typeof recordsEnvSchema>;

export const loadRecordsConfig = (env: NodeJS.ProcessEnv = process.env): RecordsConfig =>
  loadConfig(recordsEnvSchema, env);
