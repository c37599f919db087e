import { tokenStore } from '../session/token-store';
import { API_BASE, ApiError, refusal, requestHeaders } from './client';

/** The file name the server proposes (`Content-Disposition`), else `fallback`. */
export function fileNameOf(disposition: string | null, fallback: string): string {
  const match = disposition?.match(/filename\*?=(?:UTF-8'')?"?([^";]+)"?/i);
  const name = match?.[1] ? decodeURIComponent(match[1]).replace(/[\\/]/g, '_') : '';
  const extension = fallback.slice(fallback.lastIndexOf('.'));
  return name.endsWith(extension) ? name : fallback;
}

/**
 * Downloads a file from the API with the session (a plain link could not send the token): fetched,
 * then saved through a Blob under the name the server proposes. Throws {@link ApiError} with the
 * server's message; a 401 ends the session like any other call. Answers the file name.
 */
export async function downloadFile(
  path: string,
  {
    accept,
    fallbackName,
    query = {},
  }: { accept: string; fallbackName: string; query?: Record<string, string> },
): Promise<string> {
  const token = tokenStore.get();
  const search = new URLSearchParams(query).toString();
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}${search ? `?${search}` : ''}`, {
      headers: requestHeaders(token, accept),
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
    const message = body.message ?? `HTTP ${response.status}`;
    refusal(response.status, token, message);
    throw new ApiError(response.status, message, body.errors ?? [], body);
  }
  const blob = await response.blob();
  const fileName = fileNameOf(response.headers.get('Content-Disposition'), fallbackName);
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
