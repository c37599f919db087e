import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** `POST /dates/checkin/{id}` (DOCTOR, ADMIN): the patient has arrived ("Registrar llegada"). */
export const checkInAppointment = (id: string) =>
  api.post<AppointmentView>(`/dates/checkin/${encodeURIComponent(id)}`);
