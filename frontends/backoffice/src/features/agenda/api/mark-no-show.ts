import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** `POST /dates/noshow/{id}` (DOCTOR, ADMIN): the patient did not come (from the appointment's start). */
export const markNoShow = (id: string) =>
  api.post<AppointmentView>(`/dates/noshow/${encodeURIComponent(id)}`);
