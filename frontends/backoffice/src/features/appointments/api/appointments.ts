import useSWR from 'swr';
import type { AppointmentsPage, AppointmentStatusChange, AppointmentView } from '@crm/contracts';
import { api } from '@crm/web-kit';
import { APPOINTMENTS_KEY } from '@/lib/cache-keys';

/** The server's largest page of GET /dates. */
const PAGE_LIMIT = 100;

/**
 * The day's work: GET /dates?status=current (booked and checked-in appointments, and those attended
 * or marked no-show today), page by page. The list sorts, filters and pages on the client
 * (docs/product/back-office.md#appointment-list), so it needs them all.
 */
export async function fetchAllAppointments(): Promise<AppointmentView[]> {
  const all: AppointmentView[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await api.get<AppointmentsPage>('/dates', {
      query: { page, limit: PAGE_LIMIT, status: 'current' },
    });
    all.push(...answer.dates);
    if (page >= answer.totalPages || answer.dates.length === 0) return all;
  }
}

export const useAppointments = () =>
  useSWR<AppointmentView[]>(APPOINTMENTS_KEY, fetchAllAppointments, { revalidateOnFocus: false });

/** DELETE /dates/delete/{id} — ADMIN only. */
export const deleteAppointment = (id: string) =>
  api.delete<AppointmentStatusChange>(`/dates/delete/${encodeURIComponent(id)}`);
