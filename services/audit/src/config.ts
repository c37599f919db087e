import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

export const auditEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4006),
  MONGO_DB: z.string().min(1).default('audit'),
  /** An export matching more rows is refused (400) with a request to narrow the dates. */
  AUDIT_EXPORT_MAX_ROWS: z.coerce.number().int().positive().default(100_000),
  /** How often this service deletes its own published `audit_outbox` documents (exports it recorded). */
  AUDIT_OUTBOX_SWEEP_MS: z.coerce.number().int().positive().default(60_000),
  /** How often the trail's day counts are brought up to date (and rows without a day given one). */
  DAY_COUNTS_INTERVAL_MS: z.coerce.number().int().positive().default(10_000),
});

export type AuditConfig = z.infer<typeof auditEnvSchema>;

export const loadAuditConfig = (env: NodeJS.ProcessEnv = process.env): AuditConfig =>
  loadConfig(auditEnvSchema, env);
