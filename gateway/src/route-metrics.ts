import type { IncomingMessage } from 'node:http';
import { API_ROUTES } from '@crm/contracts';
import {
  DeployableMetrics,
  httpRequestMetrics,
  METRICS_PATH,
  UNMATCHED_ROUTE,
  type RouteOf,
} from '@crm/server-kit';
import { API_PREFIX } from './proxy-table';
import { routeMatcher } from './route-patterns';

/**
 * The route pattern of a gateway request, for metrics: `/api/v1/dates/id/:id` for a call of the
 * route table, `/healthz`, `/readyz`, `/metrics`, `static` for the front ends' files, `unmatched`
 * for an API path no route has. Never the raw URL (ids and one-time tokens travel in paths).
 */
export function gatewayRouteOf(): RouteOf {
  // Specific paths come before `:param` ones in the table, as the services match them.
  const routeName = routeMatcher(
    API_ROUTES.map((route) => ({
      method: route.method,
      pattern: route.path,
      value: `${API_PREFIX}${route.path}`,
    })),
  );
  const quiet = new Set(['/healthz', '/readyz', METRICS_PATH]);
  return (req: IncomingMessage) => {
    const url = req.url ?? '';
    const queryAt = url.indexOf('?');
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    if (!path.startsWith(`${API_PREFIX}/`)) return quiet.has(path) ? path : 'static';
    return routeName(req.method ?? 'GET', path.slice(API_PREFIX.length)) ?? UNMATCHED_ROUTE;
  };
}

/** The gateway's metrics: HTTP by route (counted as each request arrives) and its rate-limit refusals. */
export function gatewayMetrics(metrics: DeployableMetrics) {
  const rateLimited = metrics.counter(
    'crm_gateway_rate_limited_total',
    'Requests the gateway refused with 429, by limit (global, auth, signin-failures)',
    ['limit'],
  );
  return {
    observe: httpRequestMetrics(metrics, gatewayRouteOf(), 'start'),
    rateLimited: (limit: string) => rateLimited.inc({ limit }),
  };
}
