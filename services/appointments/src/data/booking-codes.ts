import { violatedField } from '@crm/server-kit';
import type { AppointmentModels } from './appointment.model';

/** New codes drawn for one document before giving up (each draw collides about 1 in 150 million). */
export const MAX_CODE_DRAWS = 5;

/**
 * Was an insert refused because another document holds its booking code? MongoDB names the index;
 * FerretDB does not, so look for a holder of the code (not the refused document: it was not written).
 */
export async function codeTaken(models: AppointmentModels, error: unknown, bookingCode: string) {
  const field = violatedField(error, ['slotKey', 'activePatientKey', 'codeKey'] as const);
  if (field) return field === 'codeKey';
  return (await models.Appointment.exists({ codeKey: bookingCode })) !== null;
}
