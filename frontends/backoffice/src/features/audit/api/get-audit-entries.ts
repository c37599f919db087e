import useSWR from 'swr';
import type { AuditPage } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** The filters of the trail, as typed in the form (empty = not filtered). `from`/`to` are days `YYYY-MM-DD`. */
export interface AuditFilters {
  patientId: string;
  actorId: string;
  action: string;
  from: string;
  to: string;
}

export const NO_AUDIT_FILTERS: AuditFilters = { patientId: '', actorId: '', action: '', from: '', to: '' };

/** The query string of the filters: only the ones set (the server refuses unknown or empty ones). */
export function auditFilterQuery(filters: AuditFilters): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [key, value] of Object.entries(filters) as Array<[keyof AuditFilters, string]>) {
    const trimmed = value.trim();
    if (trimmed) query[key] = trimmed;
  }
  return query;
}

/** GET /audit?patientId&actorId&action&from&to&page&limit — one page of the trail, newest first (ADMIN). */
export const getAuditEntries = (filters: AuditFilters, page: number, limit: number) =>
  api.get<AuditPage>('/audit', { query: { ...auditFilterQuery(filters), page, limit } });

/** `enabled: false` (not an ADMIN) asks nothing. */
export const useAuditEntries = (filters: AuditFilters, page: number, limit: number, enabled = true) =>
  useSWR(
    enabled ? ['backoffice:audit', JSON.stringify(auditFilterQuery(filters)), page, limit] : null,
    () => getAuditEntries(filters, page, limit),
    { keepPreviousData: true, revalidateOnFocus: false, shouldRetryOnError: false },
  );
