import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { acceptableRequestId, CLIENT_REQUEST_ID_HEADER } from '@crm/server-kit';
import { clientIp, isHttps } from './client-address';

/**
 * True for headers that claim an identity. Services must derive identity from the verified token
 * only; a client that sends these is trying to impersonate someone, so they never pass the gateway.
 */
export function isIdentityHeader(name: string): boolean {
  // Header names in `req.headers` are lower-case already.
  return (
    name.charCodeAt(0) === 120 /* x */ &&
    (name.startsWith('x-user-') || name === 'x-forwarded-user' || name.startsWith('x-authenticated-'))
  );
}

/**
 * Prepares a request for an upstream: strips identity headers, sets the correlation id (the trace id
 * with tracing on, else a new uuid,
 * echoed on the response; the client's own id, if harmless, goes on as X-Client-Request-Id) and
 * states who the client is. Authorization
 * is left untouched: services verify the token themselves.
 */
export function prepareForwardedHeaders(
  req: IncomingMessage,
  res: ServerResponse,
  trustedHops: number,
  traceId?: string,
): void {
  // Resolve (and cache) the client address before X-Forwarded-For is rewritten below.
  clientIp(req, trustedHops);
  const headers = req.headers;
  for (const name in headers) {
    if (isIdentityHeader(name)) delete headers[name];
  }
  // The request id is always the gateway's own: a client could otherwise make its requests look
  // like someone else's in the logs and the access trail. Its own id travels on, marked as its own.
  const clientRequestId = acceptableRequestId(headers['x-request-id']);
  if (clientRequestId) headers[CLIENT_REQUEST_ID_HEADER] = clientRequestId;
  else delete headers[CLIENT_REQUEST_ID_HEADER];
  // With tracing on, the trace id of the request's span (a new trace: the gateway never continues a
  // client's), so the id a client quotes finds the whole trace.
  const requestId = traceId ?? randomUUID();
  headers['x-request-id'] = requestId;
  res.setHeader('X-Request-Id', requestId);

  const peer = req.socket.remoteAddress ?? '';
  // Without a trusted proxy in front, a client-sent X-Forwarded-For is a lie we must not pass on.
  const forwardedFor =
    trustedHops > 0 && typeof headers['x-forwarded-for'] === 'string' ? headers['x-forwarded-for'] : '';
  headers['x-forwarded-for'] = forwardedFor ? `${forwardedFor}, ${peer}` : peer;
  headers['x-forwarded-proto'] = isHttps(req, trustedHops) ? 'https' : 'http';
  if (trustedHops === 0 || !headers['x-forwarded-host']) {
    if (headers.host) headers['x-forwarded-host'] = headers.host;
    else delete headers['x-forwarded-host'];
  }
}
