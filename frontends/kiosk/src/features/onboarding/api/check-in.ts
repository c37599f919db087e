import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/**
 * `POST /dates/checkin {pacientId, code}`: registers the patient's arrival for their appointment
 * whose check-in window is open (2 h before its start to 30 min after). 403 without a matching code,
 * 404 with a Spanish message when there is none, 409 when it is already checked in.
 */
export function checkInPatient(pacientId: string, code: string): Promise<AppointmentView> {
  return api.post<AppointmentView>('/dates/checkin', { pacientId, code });
}
