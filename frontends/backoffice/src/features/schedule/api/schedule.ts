import useSWR from 'swr';
import type { AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';
import { BOOKED_DATES_PATH } from '@/lib/cache-keys';

/** GET /dates/booked — instants of the appointment slots already taken. */
export const useBookedDates = () =>
  useSWR<string[]>(BOOKED_DATES_PATH, () => api.get<string[]>(BOOKED_DATES_PATH), {
    refreshInterval: 60_000,
  });

/** POST /dates/admin {date, pacientId} — a doctor or admin books a slot for a patient. */
export const bookForPatient = (date: string, pacientId: string) =>
  api.post<AppointmentView>('/dates/admin', { date, pacientId });
