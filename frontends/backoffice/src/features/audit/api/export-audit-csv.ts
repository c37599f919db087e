import { API_BASE, ApiError, SESSION_REFUSED_EVENT, tokenStore } from '@crm/web-kit';
import { auditFilterQuery, type AuditFilters } from './get-audit-entries';

/** The file name the server proposes (`Content-Disposition`), else `registro-de-accesos.csv`. */
export function csvFileName(disposition: string | null): string {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  const name = match?.[1] ? decodeURIComponent(match[1]).replace(/[\\/]/g, '_') : '';
  return name.endsWith('.csv') ? name : 'registro-de-accesos.csv';
}

/**
 * GET /audit/export.csv with the list's filters (ADMIN): fetched with the bearer token (a plain link
 * could not send it), then saved through a Blob. The server escapes formula injection and records the
 * export itself. Throws {@link ApiError} with the server's message (e.g. too many rows: narrow the dates).
 */
export async function exportAuditCsv(filters: AuditFilters): Promise<string> {
  const token = tokenStore.get();
  const query = new URLSearchParams(auditFilterQuery(filters)).toString();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}/audit/export.csv${query ? `?${query}` : ''}`, {
      headers: { Accept: 'text/csv', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      credentials: 'include',
    });
  } catch {
    throw new ApiError(0, 'Network error');
  }
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as {
      message?: string;
      errors?: Array<{ message: string; field?: string }>;
    };
    if (response.status === 401 && token) {
      tokenStore.clear();
      window.dispatchEvent(new CustomEvent(SESSION_REFUSED_EVENT, { detail: { message: body.message } }));
    }
    throw new ApiError(response.status, body.message ?? `HTTP ${response.status}`, body.errors ?? [], body);
  }
  const blob = await response.blob();
  const fileName = csvFileName(response.headers.get('Content-Disposition'));
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the browser has started the download.
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return fileName;
}
