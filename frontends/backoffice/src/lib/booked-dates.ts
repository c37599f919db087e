import useSWR from 'swr';
import { api } from '@crm/web-kit';
import { BOOKED_DATES_PATH } from './cache-keys';

/** GET /dates/booked — instants of the appointment slots already taken (booking and "Editar Cita"). */
export const useBookedDates = () =>
  useSWR<string[]>(BOOKED_DATES_PATH, () => api.get<string[]>(BOOKED_DATES_PATH), {
    refreshInterval: 60_000,
  });
