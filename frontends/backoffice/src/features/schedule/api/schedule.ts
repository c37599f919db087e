import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** POST /dates/admin {date, pacientId} — a doctor or admin books a slot for a patient. */
export const bookForPatient = (date: string, pacientId: string) =>
  api.post<AppointmentView>('/dates/admin', { date, pacientId });
