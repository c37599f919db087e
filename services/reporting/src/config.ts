import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

export const reportingEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4007),
  MONGO_DB: z.string().min(1).default('reporting'),
  /** The centre profile (`GET /config/centre`): its refund window decides which cancellations are refunded. */
  CONFIG_SERVICE_URL: z.url({ protocol: /^https?$/ }).default('http://127.0.0.1:4005'),
  /** Upper bound of the call to the config service; past it the default window (24 h) is used. */
  UPSTREAM_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  /** How long the refund window read from the config service is trusted (`config.centre.updated.v1` drops it). */
  REPORTING_CENTRE_CACHE_MS: z.coerce.number().int().min(0).default(300_000),
  /** How often the day totals of recently stored facts are recomputed from the facts (self-healing). */
  REPORTING_RECONCILE_MS: z.coerce.number().int().positive().default(60_000),
});

export type ReportingConfig = z.infer<typeof reportingEnvSchema>;

export const loadReportingConfig = (env: NodeJS.ProcessEnv = process.env): ReportingConfig =>
  loadConfig(reportingEnvSchema, env);
