import useSWR from 'swr';
import type { ReportSummary } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** GET /reports/summary?from&to — the dashboard's figures, day by day and in total (ADMIN). */
export const getReportSummary = (from: string, to: string) =>
  api.get<ReportSummary>('/reports/summary', { query: { from, to } });

/** `enabled: false` (not an ADMIN) asks nothing. */
export const useReportSummary = (from: string, to: string, enabled = true) =>
  useSWR(enabled ? ['backoffice:reports', from, to] : null, () => getReportSummary(from, to), {
    keepPreviousData: true,
    revalidateOnFocus: false,
    shouldRetryOnError: false,
  });
