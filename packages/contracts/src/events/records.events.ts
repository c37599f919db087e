import { z } from 'zod';
import { defineEvent } from './envelope';

/**
 * References only: a clinical record's contents (metadata) never travel on the bus. Consumers that
 * need more ask the records service with a token allowed to read it.
 */
const recordReference = z.object({
  id: z.string(),
  userId: z.string(),
  dateId: z.string(),
  doctorId: z.string(),
  configVersion: z.number().int().min(1),
});

export const recordCreated = defineEvent('records.record.created.v1', recordReference);
export const recordUpdated = defineEvent('records.record.updated.v1', recordReference);
