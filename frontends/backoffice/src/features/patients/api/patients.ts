import useSWR from 'swr';
import type {
  AppointmentStatusChange,
  AppointmentView,
  PacientsPage,
  PatientAppointments,
} from '@crm/contracts';
import { api } from '@crm/web-kit';

export interface PatientsQuery {
  page: number;
  limit: number;
  search: string;
  /** Also list erased accounts ("Paciente eliminado"), which the server leaves out by default. */
  includeErased?: boolean;
}

/** GET /users/pacients?page&limit&search[&includeErased=true] — the paged patient list (README "Decisions"). */
export const getPatientsPage = ({ page, limit, search, includeErased }: PatientsQuery) =>
  api.get<PacientsPage>('/users/pacients', {
    query: { page, limit, search, includeErased: includeErased ? 'true' : undefined },
  });

export const usePatientsPage = (query: PatientsQuery) =>
  useSWR(
    ['backoffice:patients', query.page, query.limit, query.search, Boolean(query.includeErased)],
    () => getPatientsPage(query),
    {
      keepPreviousData: true,
      revalidateOnFocus: false,
    },
  );

/** GET /dates/userid/{id} — the patient and their active appointment(s). */
export const usePatientAppointments = (id: string | undefined) =>
  useSWR(id ? ['backoffice:patient', id] : null, () =>
    api.get<PatientAppointments>(`/dates/userid/${encodeURIComponent(id ?? '')}`),
  );

/** DELETE /dates/cancel/{id} — a doctor or admin cancels a patient's appointment. */
export const cancelAppointment = (id: string) =>
  api.delete<AppointmentStatusChange>(`/dates/cancel/${encodeURIComponent(id)}`);

/** POST /dates/reschedule/{id} {date} — a doctor or admin moves the appointment to another free slot. */
export const rescheduleAppointment = (id: string, date: string) =>
  api.post<AppointmentView>(`/dates/reschedule/${encodeURIComponent(id)}`, { date });
