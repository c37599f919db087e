import useSWR from 'swr';
import { api } from '@crm/web-kit';

import { CURRENT_DATE_PATH } from '@/lib/cache-keys';

export { CURRENT_DATE_PATH };

export type { CurrentAppointment as CurrentDate } from '@/lib/refund-policy';
import type { CurrentAppointment as CurrentDate } from '@/lib/refund-policy';

/** GET /dates/currentDate — the patient's active appointment, `{date: null}` when none. */
export const getCurrentDate = () => api.get<CurrentDate>(CURRENT_DATE_PATH);

export const useCurrentDate = () => useSWR<CurrentDate>(CURRENT_DATE_PATH, getCurrentDate);
