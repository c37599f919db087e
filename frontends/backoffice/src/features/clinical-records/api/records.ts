import useSWR from 'swr';
import type { RecordView, RecordsPage, ViewConfigView } from '@crm/contracts';
import { api, ApiError, swrFetcher } from '@crm/web-kit';
import type { CreateRecordPayload, UpdateRecordPayload } from '../components/form-builder';

/** The appointment as `GET /dates/id/:id` answers it (services/appointments/README.md). */
export interface Appointment {
  id: string;
  date: string;
  status: string;
  name: string;
  pacientId: string;
  user: { id: string; name: string; email: string; phone?: string };
  /** When the patient's arrival was registered (kept after the appointment ends). */
  checkedInAt?: string;
}

/**
 * The view whose form is an appointment's clinical record (docs/product/clinical-records.md#record-detail).
 */
export const RECORDS_VIEW = 'doctor/appointments/:id';

/** SWR keys are API paths; one per view, so each configuration is fetched and cached once. */
export const viewConfigKey = (view: string) => `/config/view?view=${encodeURIComponent(view)}`;
export const appointmentKey = (id: string) => `/dates/id/${encodeURIComponent(id)}`;
export const recordKey = (id: string) => `/records/${encodeURIComponent(id)}`;
/** `GET /records/appointment/:id`: the record of an appointment, `{record: null}` while it has none. */
export const appointmentRecordKey = (appointmentId: string) =>
  `/records/appointment/${encodeURIComponent(appointmentId)}`;
export const recordsPageKey = (page: number, limit: number, search: string) =>
  `/records?${new URLSearchParams({ page: String(page), limit: String(limit), search })}`;

/** A missing view answers 404 "View not found": the form then has no fields (and says so). */
async function fetchViewConfig(key: string): Promise<ViewConfigView | null> {
  try {
    return await swrFetcher<ViewConfigView>(key);
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

/** The configuration of a view, fetched only while `enabled` (the form is opened). */
export function useViewConfig(view: string, enabled = true) {
  return useSWR(enabled ? viewConfigKey(view) : null, fetchViewConfig, { revalidateOnFocus: false });
}

export const useAppointment = (id: string | undefined) =>
  useSWR<Appointment>(id ? appointmentKey(id) : null, swrFetcher, { revalidateOnFocus: false });

/** The answer of `GET /records/appointment/:id`. */
export interface AppointmentRecord {
  record: RecordView | null;
}

/** Whether an appointment has its clinical record already (one per appointment), and which. */
export const useAppointmentRecord = (appointmentId: string | undefined) =>
  useSWR<AppointmentRecord>(appointmentId ? appointmentRecordKey(appointmentId) : null, swrFetcher, {
    revalidateOnFocus: true,
  });

export const useRecord = (id: string | undefined) =>
  useSWR<RecordView>(id ? recordKey(id) : null, swrFetcher, { revalidateOnFocus: false });

export const useRecordsPage = (page: number, limit: number, search: string) =>
  useSWR<RecordsPage>(recordsPageKey(page, limit, search), swrFetcher, { keepPreviousData: true });

export const createRecord = (payload: CreateRecordPayload) => api.post<RecordView>('/records', payload);

export const updateRecord = (id: string, payload: UpdateRecordPayload) =>
  api.put<RecordView>(recordKey(id), payload);
