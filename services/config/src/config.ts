import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

export const configEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4005),
  MONGO_DB: z.string().min(1).default('config'),
});

export type ConfigServiceConfig = z.infer<typeof configEnvSchema>;

export const loadConfigServiceConfig = (env: NodeJS.ProcessEnv = process.env): ConfigServiceConfig =>
  loadConfig(configEnvSchema, env);
