import useSWR from 'swr';
import { api } from '@crm/web-kit';

import { BOOKED_DATES_PATH } from '@/lib/cache-keys';

export { BOOKED_DATES_PATH };

/** GET /dates/booked — instants of the slots already taken (public). */
export const getBookedDates = () => api.get<string[]>(BOOKED_DATES_PATH);

export const useBookedDates = () =>
  useSWR<string[]>(BOOKED_DATES_PATH, getBookedDates, { refreshInterval: 60_000, revalidateOnFocus: true });
