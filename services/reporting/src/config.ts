import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

const optionalUrl = z.url({ protocol: /^https?$/ }).optional();
const SYSTEM_STATUS_URLS = {
  APPOINTMENTS_SERVICE_URL: optionalUrl,
  RECORDS_SERVICE_URL: optionalUrl,
  ROOMS_SERVICE_URL: optionalUrl,
  AUDIT_SERVICE_URL: optionalUrl,
  REPORTING_SERVICE_URL: optionalUrl,
  PAYMENTS_SERVICE_URL: optionalUrl,
  NOTIFICATIONS_SERVICE_URL: optionalUrl,
};

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
  /**
   * "Estado del sistema": where each deployable answers `/readyz` and `/internal/status`; one without
   * an address is shown as unknown (the gateway says its own version on the way).
   */
  ...SYSTEM_STATUS_URLS,
  /** Upper bound of each deployable's answer to the system status (it is then "no responde"). */
  SYSTEM_STATUS_TIMEOUT_MS: z.coerce.number().int().positive().default(2000),
});

export type ReportingConfig = z.infer<typeof reportingEnvSchema>;

export const loadReportingConfig = (env: NodeJS.ProcessEnv = process.env): ReportingConfig =>
  loadConfig(reportingEnvSchema, env);
