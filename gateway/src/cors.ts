import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from './json-response';
import { HTTP_MESSAGES } from '@crm/server-kit';

const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE, OPTIONS';
const ALLOWED_HEADERS = 'Authorization, Content-Type, X-Request-Id, X-Idle-Ms';
const EXPOSED_HEADERS = 'X-Request-Id, RateLimit, RateLimit-Policy, Retry-After';

export type CorsResult = 'continue' | 'answered';

/**
 * CORS for the API, only for the origins listed in CORS_ORIGINS (the frontends are served from the
 * gateway's own origin and need none). Credentials are allowed, so the origin is echoed, never "*".
 * Requests from other origins are not refused here (the browser enforces CORS by withholding the
 * answer), except preflights, which get a 403 so nothing suggests they were allowed.
 */
export function createCors(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: IncomingMessage, res: ServerResponse): CorsResult => {
    const origin = req.headers.origin;
    const isPreflight =
      req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined;
    if (allowed.size === 0 && !isPreflight) return 'continue';
    if (allowed.size > 0) res.setHeader('Vary', 'Origin');
    const permitted = typeof origin === 'string' && allowed.has(origin);
    if (permitted) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    if (!isPreflight) {
      if (permitted) res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
      return 'continue';
    }
    if (!permitted) {
      sendJson(res, 403, { message: HTTP_MESSAGES.originNotAllowed });
      return 'answered';
    }
    res.statusCode = 204;
    res.setHeader('Access-Control-Allow-Methods', ALLOWED_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.setHeader('Content-Length', '0');
    res.end();
    return 'answered';
  };
}
