import { API_PREFIX } from '../../gateway/src/proxy-table';

export interface RawResponse {
  status: number;
  headers: Headers;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  token?: string;
  /** Sent as JSON unless `rawBody` is given. */
  body?: unknown;
  rawBody?: string | ReadableStream<Uint8Array>;
  headers?: Record<string, string>;
  /** The path is the gateway's own (health, static files), not a service path under /api/v1. */
  outsideApi?: boolean;
  /** Aborts the call (e.g. `AbortSignal.timeout(ms)`), to tell a hang from a slow answer. */
  signal?: AbortSignal;
}

/** One call to the gateway with full control over method, headers and body bytes. */
export async function call(
  gatewayUrl: string,
  method: string,
  servicePath: string,
  options: CallOptions = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  let body: string | ReadableStream<Uint8Array> | undefined = options.rawBody;
  if (body === undefined && options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${gatewayUrl}${options.outsideApi ? '' : API_PREFIX}${servicePath}`, {
    method,
    headers,
    body,
    signal: options.signal,
    // Streams need half duplex in Node's fetch (chunked request bodies, no Content-Length).
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  } as RequestInit);
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

/** Error answers must be JSON objects with a text message (what the front ends show or log). */
export function isJsonError(response: RawResponse): boolean {
  return (
    (response.headers.get('content-type') ?? '').startsWith('application/json') &&
    typeof response.body === 'object' &&
    response.body !== null &&
    typeof response.body.message === 'string' &&
    response.body.message.length > 0
  );
}

/** A request body streamed in chunks, so no Content-Length tells the gateway its size. */
export function chunkedBody(text: string, chunkSize = 16 * 1024): ReadableStream<Uint8Array> {
  const bytes = new TextEncoder().encode(text);
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= bytes.length) return controller.close();
      controller.enqueue(bytes.subarray(offset, offset + chunkSize));
      offset += chunkSize;
    },
  });
}
