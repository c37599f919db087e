import type { RequestHandler } from 'express';
import type { AuthenticatedUser } from './auth';
import type { Logger } from './logger';
import { expressRouteOf } from './metrics/http';

/** Probes and scrapes: polled every few seconds, they would drown the requests people make. */
const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Exactly one log line per request, when its answer is done (or the client left):
 * `{requestId, method, route, status, durationMs, userId?}`. The route is the pattern that
 * answered (`/dates/id/:id`), never the URL (ids and one-time tokens travel in paths, query strings
 * carry e-mail addresses); the caller is named by account id only, never by name, e-mail, phone or
 * token. 5xx lines are warnings (the error handler logged the cause already).
 */
export function requestLog(logger: Logger): RequestHandler {
  return (req, res, next) => {
    if (QUIET_PATHS.has(req.path)) return next();
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 499;
      const user = (req as { user?: AuthenticatedUser }).user;
      const line = {
        requestId: String(req.headers['x-request-id']),
        method: req.method,
        route: expressRouteOf(req),
        status,
        durationMs: Math.round(Number(process.hrtime.bigint() - started) / 1e4) / 100,
        ...(user?.id ? { userId: user.id } : {}),
        ...(res.writableFinished ? {} : { aborted: true }),
      };
      if (status >= 500) logger.warn(line, 'request');
      else logger.info(line, 'request');
    });
    next();
  };
}
