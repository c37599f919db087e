import type { ServerResponse } from 'node:http';
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
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const payload = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(payload);
}
