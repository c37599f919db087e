import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_ROUTES, type ApiService } from '@crm/contracts';

/** The public API prefix; services mount the paths of the route table without it. */
export const API_PREFIX = '/api/v1';

export type UpstreamName = ApiService;

/** Which configuration variable holds each upstream's base URL (`auth` → `AUTH_SERVICE_URL`). */
export const upstreamUrlSetting = <N extends UpstreamName>(name: N) =>
  `${name.toUpperCase() as Uppercase<N>}_SERVICE_URL` as const;

export interface ProxyRoute {
  /** First path segment after /api/v1, e.g. "/dates" matches /api/v1/dates and /api/v1/dates/... */
  prefix: string;
  upstream: UpstreamName;
}

/**
 * The routing table, derived from the route table of `@crm/contracts` (the one place that says which
 * service answers which path): each first path segment goes to the service whose routes use it.
 */
export const PROXY_TABLE: readonly ProxyRoute[] = [
  ...new Map(API_ROUTES.map((route) => [firstSegment(route.path), route.service])),
].map(([prefix, upstream]) => ({ prefix, upstream }));

/** A plain `(req, res, next)` step; no Express on the proxy path. */
export type Next = (error?: unknown) => void;
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/**
 * The seam for per-route behaviour on the proxy path (e.g. the Redis cache in front of
 * `GET /config/view` and `GET /config/centre`). Runs after the JWT check, just before the request is
 * proxied; it may answer itself or call `next()` to let the request through. `path` is the service
 * path (prefix stripped, no query string, no trailing slash), or several, and must match exactly.
 */
export interface RouteMiddleware {
  method: string;
  path: string | readonly string[];
  handle: Middleware;
}

/** Index of the table by first path segment, so routing costs one Map lookup. */
export function indexProxyTable(table: readonly ProxyRoute[] = PROXY_TABLE): Map<string, UpstreamName> {
  return new Map(table.map((route) => [route.prefix, route.upstream]));
}

/** "/dates/booked" → "/dates"; "/rooms" → "/rooms". */
export function firstSegment(servicePath: string): string {
  const end = servicePath.indexOf('/', 1);
  return end === -1 ? servicePath : servicePath.slice(0, end);
}
