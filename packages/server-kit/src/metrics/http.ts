import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import type { DeployableMetrics } from './registry';

/** Seconds; from a fast cached read to a slow PDF export. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** What no route matched (404s, probes of nonsense paths): one label value, whatever the URL. */
export const UNMATCHED_ROUTE = 'unmatched';

export type RouteOf = (req: IncomingMessage) => string;

/**
 * `crm_http_requests_total`, `crm_http_request_errors_total` (5xx) and
 * `crm_http_request_duration_seconds`, by method, route pattern (never the raw URL: ids and tokens
 * travel in paths) and status class (`2xx` … `5xx`). Returns the function that observes one
 * request: call it when the request starts.
 */
export function httpRequestMetrics(
  metrics: DeployableMetrics,
  routeOf: RouteOf,
  /** When the route is known: at the end (Express matches while handling), or at once (the gateway). */
  routeAt: 'start' | 'end' = 'end',
) {
  const labels = ['method', 'route', 'status_class'] as const;
  const requests = metrics.counter('crm_http_requests_total', 'HTTP requests answered', labels);
  const errors = metrics.counter('crm_http_request_errors_total', 'HTTP requests answered with 5xx', labels);
  const duration = metrics.histogram(
    'crm_http_request_duration_seconds',
    'Time from the request to the end of its answer',
    labels,
    DURATION_BUCKETS,
  );
  return (req: IncomingMessage, res: ServerResponse): void => {
    const started = process.hrtime.bigint();
    const routeAtStart = routeAt === 'start' ? routeOf(req) : undefined;
    res.once('close', () => {
      const status = res.writableFinished ? res.statusCode : 499; // 499: the client went away first
      const value = {
        method: normaliseMethod(req.method),
        route: routeAtStart ?? routeOf(req),
        status_class: `${Math.floor(status / 100)}xx`,
      };
      requests.inc(value);
      if (status >= 500) errors.inc(value);
      duration.observe(value, Number(process.hrtime.bigint() - started) / 1e9);
    });
  };
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** Methods are a client's choice: anything unusual is one label value. */
const normaliseMethod = (method: string | undefined) => (method && METHODS.has(method) ? method : 'OTHER');

/** The Express route that answered (`/dates/id/:id`), else `unmatched`. */
export function expressRouteOf(req: IncomingMessage): string {
  const { route, baseUrl } = req as Request;
  return typeof route?.path === 'string' ? `${baseUrl ?? ''}${route.path}` : UNMATCHED_ROUTE;
}

/** The Express middleware of a service: first in its stack, so every answer is counted. */
export function httpMetricsMiddleware(metrics: DeployableMetrics): RequestHandler {
  const observe = httpRequestMetrics(metrics, expressRouteOf);
  return (req, res, next) => {
    observe(req, res);
    next();
  };
}
