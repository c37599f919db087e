import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

const optionalEmail = z.string().trim().toLowerCase().pipe(z.email()).optional();
const optionalPassword = z.string().min(8).optional();

export const authEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4001),
  MONGO_DB: z.string().min(1).default('auth'),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//)
    .default('redis://127.0.0.1:6379'),
  BOOTSTRAP_ADMIN_EMAIL: optionalEmail,
  BOOTSTRAP_ADMIN_PASSWORD: optionalPassword,
  BOOTSTRAP_DOCTOR_EMAIL: optionalEmail,
  BOOTSTRAP_DOCTOR_PASSWORD: optionalPassword,
  BOOTSTRAP_KIOSK_EMAIL: optionalEmail,
  BOOTSTRAP_KIOSK_PASSWORD: optionalPassword,
  /** Per-account limits (the gateway limits per client as well). */
  /** Failed sign-ins per account and client address, then per client address, in the window. */
  SIGNIN_MAX_ATTEMPTS: z.coerce.number().int().positive().default(10),
  SIGNIN_MAX_ATTEMPTS_PER_CLIENT: z.coerce.number().int().positive().default(50),
  FORGOT_PASSWORD_MAX_ATTEMPTS: z.coerce.number().int().positive().default(3),
  RESEND_CONFIRMATION_MAX_ATTEMPTS: z.coerce.number().int().positive().default(3),
  RESEND_CONFIRMATION_MAX_ATTEMPTS_PER_CLIENT: z.coerce.number().int().positive().default(20),
  ATTEMPT_WINDOW_SECONDS: z.coerce.number().int().positive().default(900),
  CONFIRMATION_TTL_HOURS: z.coerce.number().positive().default(48),
  RESET_TTL_MINUTES: z.coerce.number().positive().default(60),
  /** Validity of the set-your-password link e-mailed to patients registered by staff or at the kiosk. */
  INVITATION_TTL_HOURS: z.coerce.number().positive().default(168),
});

export type AuthConfig = z.infer<typeof authEnvSchema>;

export const loadAuthConfig = (env: NodeJS.ProcessEnv = process.env): AuthConfig =>
  loadConfig(authEnvSchema, env);
