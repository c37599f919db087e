import type { BookingResponse } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** POST /dates — a patient books a slot for themself. */
export const bookDate = (date: string) => api.post<BookingResponse>('/dates', { date });
