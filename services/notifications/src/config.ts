import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

export const notificationsEnvSchema = serviceEnvSchema
  .omit({
    AUTH_SERVICE_URL: true,
    JWT_PUBLIC_KEYS: true,
    JWT_TTL: true,
  })
  .extend({
    PORT: z.coerce.number().int().positive().default(4010),
    MONGO_DB: z.string().min(1).default('notifications'),
    SMTP_URL: z.string().regex(/^smtps?:\/\//, 'must be an smtp:// URL'),
    /**
     * The sender's address ("Nombre <citas@centro.es>" or "citas@centro.es"). The display name shown
     * is the centre profile's `senderName`, so that an admin can change it without a redeploy.
     */
    MAIL_FROM: z
      .string()
      .min(3)
      .default('Centro de Reconocimiento Médico <citas@example.test>')
      .refine(
        (value) => /^[^\s@<>]+@[^\s@<>]+$/.test(senderAddress(value)),
        'must contain an e-mail address',
      ),
    PUBLIC_URL: z.url().transform((url) => url.replace(/\/+$/, '')),
    /** Where the centre profile is read (`GET /config/centre`, public). */
    CONFIG_SERVICE_URL: z
      .url({ protocol: /^https?$/ })
      .default('http://127.0.0.1:4005')
      .transform((url) => url.replace(/\/+$/, '')),
    /** How long a read profile is used without asking again (0: ask for every e-mail). */
    CENTRE_PROFILE_TTL_MS: z.coerce.number().int().min(0).default(10_000),
    /** How long to wait for the config service before sending with the last known profile. */
    CONFIG_TIMEOUT_MS: z.coerce.number().int().positive().default(2_000),
    /**
     * The reminder goes out this long before the refund window closes (start − window − this), when
     * the appointment is booked early enough (fractions allowed, for tests).
     */
    REMINDER_BEFORE_REFUND_DEADLINE_MINUTES: z.coerce.number().min(0).default(360),
    /** Booked too late for that: the reminder goes out this long before the start, saying cancelling is not refunded. */
    REMINDER_LATE_LEAD_MINUTES: z.coerce.number().positive().default(180),
    /** No reminder due sooner than this after the booking (the confirmation has just said it all). */
    REMINDER_MIN_NOTICE_MINUTES: z.coerce.number().min(0).default(60),
    /** How often due reminders are looked for (each replica; each reminder is claimed once). */
    REMINDER_POLL_MS: z.coerce.number().int().positive().default(30_000),
  });

export type NotificationsConfig = z.infer<typeof notificationsEnvSchema>;

/** "Centro <citas@x>" → "citas@x"; a bare address stays as it is. */
export function senderAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1]?.trim() ?? mailFrom.trim();
}

export const loadNotificationsConfig = (env: NodeJS.ProcessEnv = process.env): NotificationsConfig =>
  loadConfig(notificationsEnvSchema, env);
