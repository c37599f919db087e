import { z } from 'zod';
import { loadConfig, serviceEnvSchema } from '@crm/server-kit';

export const roomsEnvSchema = serviceEnvSchema.extend({
  PORT: z.coerce.number().int().positive().default(4004),
  MONGO_DB: z.string().min(1).default('rooms'),
  /**
   * Slot locks younger than this are never swept. At least 2 minutes: a request sends its reservation
   * within 30 s of taking its first lock (LOCK_HOLD_LIMIT_MS) and the driver gives up after 20 s more.
   */
  ROOM_LOCK_GRACE_SECONDS: z.coerce.number().int().min(120).default(300),
  ROOM_LOCK_SWEEP_SECONDS: z.coerce.number().int().positive().default(60),
});

export type RoomsConfig = z.infer<typeof roomsEnvSchema>;

export const loadRoomsConfig = (env: NodeJS.ProcessEnv = process.env): RoomsConfig =>
  loadConfig(roomsEnvSchema, env);
