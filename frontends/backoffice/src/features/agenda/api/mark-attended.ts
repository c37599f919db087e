import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** `POST /dates/attended/{id}` (DOCTOR, ADMIN): the patient was seen. */
export const markAttended = (id: string) =>
  api.post<AppointmentView>(`/dates/attended/${encodeURIComponent(id)}`);
