import { tokenStore } from '../session/token-store';
import { idleMs, trackActivity } from '../session/activity';

/** Every call goes to the API of the same origin (the gateway), version 1. */
export const API_BASE = '/api/v1';

/** One problem reported by the server, optionally attached to a form field. */
export interface ApiFieldError {
  message: string;
  field?: string;
}

/** The error shape every service answers with: `{ message, errors?: [{ message, field? }] }`. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: ApiFieldError[];
  readonly body: unknown;

  constructor(status: number, message: string, errors: ApiFieldError[] = [], body: unknown = undefined) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.body = body;
  }

  /** True when the server (or the network) failed, not the user's input. */
  get isServerFailure(): boolean {
    return this.status === 0 || this.status >= 500;
  }
}

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestOptions {
  method?: HttpMethod;
  body?: unknown;
  query?: Record<string, string | number | boolean | undefined | null>;
  /** Send the bearer token when there is one (default true: every call carries it). */
  auth?: boolean;
  signal?: AbortSignal;
  /**
   * The call checks a password or code the person typed while signed in (erasing the account,
   * confirming the second factor): its 401 means "wrong", not "your session is over".
   */
  checksCredentials?: boolean;
}

/**
 * Calls on which a 401 means "wrong credentials", not "your session is over": they never log the
 * user out.
 */
const CREDENTIAL_CALLS = ['/auth/signIn', '/auth/signUp', '/auth/forgotPassword', '/auth/resetPassword'];

/** Fired on `window` when the server refused the session (401): the session store logs out. */
export const SESSION_REFUSED_EVENT = 'crm:session-refused';

function buildUrl(path: string, query?: RequestOptions['query']): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const qs = search.toString();
  return `${API_BASE}${path}${qs ? `?${qs}` : ''}`;
}

function toFieldErrors(value: unknown): ApiFieldError[] {
  if (!Array.isArray(value)) return [];
  return value
    .filter(
      (e): e is { message: unknown; field?: unknown } =>
        typeof e === 'object' && e !== null && 'message' in e,
    )
    .map((e) => ({
      message: String(e.message),
      ...(typeof e.field === 'string' && e.field ? { field: e.field } : {}),
    }));
}

/** The headers of a call: what it accepts, and with a session its token and the time since the person's last action. */
export function requestHeaders(token: string | null, accept: string): Record<string, string> {
  const headers: Record<string, string> = { Accept: accept };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    trackActivity();
    headers['X-Idle-Ms'] = String(idleMs());
  }
  return headers;
}

/**
 * A 401 on a call made with a session ends it here too (docs/product/booking.md#session): the session store
 * logs out.
 */
export function refusal(status: number, token: string | null, message: string): void {
  if (status !== 401 || !token) return;
  tokenStore.clear();
  window.dispatchEvent(new CustomEvent(SESSION_REFUSED_EVENT, { detail: { message } }));
}

/**
 * Sends one request to the API with credentials (cookies) and the bearer token from local storage,
 * parses the JSON answer and throws an {@link ApiError} for any non-2xx status or network failure.
 * A 401 on a call made with a session logs the user out.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, auth = true, signal, checksCredentials = false } = options;
  const token = auth ? tokenStore.get() : null;
  const headers = requestHeaders(token, 'application/json');
  if (body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), {
      method,
      headers,
      credentials: 'include',
      body: body === undefined ? undefined : JSON.stringify(body),
      signal,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'Network error');
  }

  const text = await response.text();
  let data: unknown = undefined;
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = text;
    }
  }

  if (!response.ok) {
    const record = (typeof data === 'object' && data !== null ? data : {}) as {
      message?: unknown;
      errors?: unknown;
    };
    const message =
      typeof record.message === 'string' ? record.message : response.statusText || `HTTP ${response.status}`;
    if (!checksCredentials && !CREDENTIAL_CALLS.some((p) => path.startsWith(p)))
      refusal(response.status, token, message);
    throw new ApiError(response.status, message, toFieldErrors(record.errors), data);
  }
  return data as T;
}

/** Shorthands, one per verb. */
export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    apiRequest<T>(path, { ...options, method: 'DELETE' }),
};

/** SWR fetcher: the key is the API path (e.g. `'/dates/booked'`). */
export const swrFetcher = <T>(key: string | readonly [string, ...unknown[]]): Promise<T> =>
  apiRequest<T>(typeof key === 'string' ? key : key[0]);
