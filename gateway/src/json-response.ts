import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorBody } from '@crm/server-kit';

/**
 * Answers with the platform's error shape `{ message, errors? }` without Express (the proxy path
 * has none). Never caches, never sniffs.
 */
export function sendJson(
  res: ServerResponse,
  status: number,
  body: ErrorBody | Record<string, unknown>,
): void {
  if (!writeJsonHead(res, status, body)) return;
  res.end();
}

/** Writes the status, headers and JSON payload; false when headers were already sent (destroyed). */
function writeJsonHead(
  res: ServerResponse,
  status: number,
  body: ErrorBody | Record<string, unknown>,
): boolean {
  if (res.headersSent) {
    res.destroy();
    return false;
  }
  const payload = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.write(payload);
  return true;
}

/** How much of a refused body is read and discarded, at most, before the connection is closed. */
export const DRAIN_LIMITS = { bytes: 64 * 1024 * 1024, ms: 30_000 };

/**
 * Refuses a request whose body is still arriving (413, 401, …) without resetting the client. The
 * answer is written at once (a client reading while it sends sees it immediately), but the socket is
 * closed only once the rest of the body has been read and discarded: closing a socket with unread
 * data makes the kernel send a reset, and a client still uploading (a 16 MB JSON body) then reports
 * a reset connection instead of the answer. Past `limits` (bytes or time) the socket closes anyway.
 */
export function sendJsonAndDrain(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  body: ErrorBody | Record<string, unknown>,
  limits = DRAIN_LIMITS,
): void {
  if (!res.headersSent) res.setHeader('Connection', 'close');
  if (!writeJsonHead(res, status, body)) return;
  if (req.complete || req.destroyed) {
    res.end();
    return;
  }
  let read = 0;
  let finished = false;
  const finish = (cut: boolean) => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    req.off('data', count);
    res.end();
    // Over the cap: stop reading; the socket closes with the answer already sent.
    if (cut) res.once('finish', () => req.socket.destroy());
  };
  const count = (chunk: Buffer) => {
    read += chunk.length;
    if (read > limits.bytes) finish(true);
  };
  const timer = setTimeout(() => finish(true), limits.ms);
  timer.unref();
  req.on('data', count);
  req.once('end', () => finish(false));
  req.once('error', () => finish(true));
  req.resume();
}
