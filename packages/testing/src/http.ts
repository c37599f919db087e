import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningServer {
  url: string;
  server: Server;
  close: () => Promise<void>;
}

/** Serves a request listener (an Express app or a raw handler) on an ephemeral loopback port. */
export async function listen(listener: RequestListener): Promise<RunningServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface ApiResponse<T = Record<string, unknown>> {
  status: number;
  body: T;
  headers: Headers;
}

/** A tiny JSON client for API tests: `api.post('/auth/signIn', body, token)`. */
export function apiClient(baseUrl: string) {
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    token?: string,
  ): Promise<ApiResponse<T>> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text so the assertion shows it
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    get: <T = any>(path: string, token?: string) => call<T>('GET', path, undefined, token),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    post: <T = any>(path: string, body?: unknown, token?: string) => call<T>('POST', path, body ?? {}, token),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    put: <T = any>(path: string, body?: unknown, token?: string) => call<T>('PUT', path, body ?? {}, token),
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    delete: <T = any>(path: string, token?: string, body?: unknown) => call<T>('DELETE', path, body, token),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
