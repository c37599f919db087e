import { downloadFile } from '@crm/web-kit';
import { auditFilterQuery, type AuditFilters } from './get-audit-entries';

/**
 * GET /audit/export.csv with the list's filters (ADMIN), saved as the file the server names. The
 * server escapes formula injection and records the export itself. Throws {@link ApiError} with the
 * server's message (e.g. too many rows: narrow the dates).
 */
export const exportAuditCsv = (filters: AuditFilters): Promise<string> =>
  downloadFile('/audit/export.csv', {
    accept: 'text/csv',
    fallbackName: 'registro-de-accesos.csv',
    query: auditFilterQuery(filters),
  });
