import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GatewayConfig } from './config';

/** The public API prefix; services mount the SPEC §7 paths without it. */
export const API_PREFIX = '/api/v1';

export type UpstreamName = 'auth' | 'appointments' | 'records' | 'rooms' | 'config';

/** Which configuration variable holds each upstream's base URL. */
export const UPSTREAM_URL_SETTING = {
  auth: 'AUTH_SERVICE_URL',
  appointments: 'APPOINTMENTS_SERVICE_URL',
  records: 'RECORDS_SERVICE_URL',
  rooms: 'ROOMS_SERVICE_URL',
  config: 'CONFIG_SERVICE_URL',
} as const satisfies Record<UpstreamName, keyof GatewayConfig>;

export interface ProxyRoute {
  /** First path segment after /api/v1, e.g. "/dates" matches /api/v1/dates and /api/v1/dates/... */
  prefix: string;
  upstream: UpstreamName;
}

/** The routing table: the only place that says which service answers which path. */
export const PROXY_TABLE: readonly ProxyRoute[] = [
  { prefix: '/auth', upstream: 'auth' },
  { prefix: '/users', upstream: 'auth' },
  { prefix: '/dates', upstream: 'appointments' },
  { prefix: '/records', upstream: 'records' },
  { prefix: '/rooms', upstream: 'rooms' },
  { prefix: '/room-calendar', upstream: 'rooms' },
  { prefix: '/config', upstream: 'config' },
];

/** A plain `(req, res, next)` step; no Express on the proxy path. */
export type Next = (error?: unknown) => void;
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/**
 * The seam for per-route behaviour on the proxy path (e.g. a Redis cache in front of
 * `GET /config/view`). Runs after the JWT check, just before the request is proxied; it may answer
 * itself or call `next()` to let the request through. `path` is the service path (prefix stripped,
 * no query string) and must match exactly.
 */
export interface RouteMiddleware {
  method: string;
  path: string;
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
