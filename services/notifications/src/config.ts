import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

export const notificationsEnvSchema = serviceEnvSchema.omit({ JWT_SECRET: true, JWT_TTL: true }).extend({
  PORT: z.coerce.number().int().positive().default(4010),
  MONGO_DB: z.string().min(1).default('notifications'),
  SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// URL'),
  MAIL_FROM: z.string().min(3).default('Centro de Reconocimiento Médico <citas@example.test>'),
  PUBLIC_URL: z.url().transform((url) => url.replace(/\/+$/, '')),
});

export type NotificationsConfig = z.infer<typeof notificationsEnvSchema>;

export const loadNotificationsConfig = (env: NodeJS.ProcessEnv = process.env): NotificationsConfig =>
  loadConfig(notificationsEnvSchema, env);
