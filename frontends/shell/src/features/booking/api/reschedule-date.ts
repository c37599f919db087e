import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** POST /dates/reschedule — the patient moves their booked appointment to another free slot in one step. */
export const rescheduleDate = (date: string) => api.post<AppointmentView>('/dates/reschedule', { date });
