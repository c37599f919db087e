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
  /**
   * What the record charges, for read models such as reporting (optional, added in v1): the form's
   * GROSS total, its currency, the certificate type chosen, the record's revision (a later revision
   * replaces an earlier one) and the appointment's instant (the day the revenue belongs to). Absent
   * when the form has no GROSS field. Amounts only: no clinical content.
   */
  billing: z
    .object({
      gross: z.number().finite(),
      currency: z.string().min(1).max(10),
      certificateType: z.string().max(200).optional(),
      revision: z.number().int().min(1).optional(),
      appointmentDate: z.iso.datetime({ offset: true }).optional(),
    })
    .optional(),
});

export const recordCreated = defineEvent('records.record.created.v1', recordReference, {
  publishers: ['records'],
  consumers: ['appointments', 'records', 'reporting'],
});
export const recordUpdated = defineEvent('records.record.updated.v1', recordReference, {
  publishers: ['records'],
  consumers: ['appointments', 'records', 'reporting'],
});
