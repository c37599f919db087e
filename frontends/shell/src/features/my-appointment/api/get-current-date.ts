import useSWR from 'swr';
import { api } from '@crm/web-kit';

import { CURRENT_DATE_PATH } from '@/lib/cache-keys';

export { CURRENT_DATE_PATH };

export interface CurrentDate {
  date: string | null;
  /** `checkedIn` once the patient's arrival is registered: no move, no cancel from here. */
  status?: 'booked' | 'checkedIn';
  checkedInAt?: string;
}

/** GET /dates/currentDate — the patient's active appointment, `{date: null}` when none. */
export const getCurrentDate = () => api.get<CurrentDate>(CURRENT_DATE_PATH);

export const useCurrentDate = () => useSWR<CurrentDate>(CURRENT_DATE_PATH, getCurrentDate);
