import { Router, type RequestHandler } from 'express';
import { API_ROUTES, type ApiService, type RouteTable } from '@crm/contracts';
import { requireRole } from './auth';

type TableRoute = RouteTable[number];

/** `'GET /dates/id/:id'`: a route of the table, as its method and path. */
export type RouteKey<S extends ApiService> =
  Extract<TableRoute, { service: S }> extends infer R
    ? R extends { method: infer M extends string; path: infer P extends string }
      ? `${M} ${P}`
      : never
    : never;

/** What a service writes for one route: its validation, object-level rules and the work itself. */
export type RouteHandler = RequestHandler | readonly RequestHandler[];

/** The handlers of every route the table gives a service (a missing or unknown one does not compile). */
export type RouteHandlers<S extends ApiService> = Record<RouteKey<S>, RouteHandler>;

/**
 * Mounts a service's routes from the route table (packages/contracts/src/api/routes.ts), the one
 * place that says which calls exist and who may make them: method, path and roles come from the
 * table, in its order (specific paths before `:param` ones); the service gives only the handlers.
 * A route with roles gets `requireUser` and `requireRole(...)` in front of its handlers. A table
 * entry without handlers, or handlers for a route the table does not give this service, fail at
 * start-up (and, typed, at compile time), so the table and what a service serves cannot drift.
 */
export function tableRouter<S extends ApiService>(
  service: S,
  handlers: RouteHandlers<S>,
  requireUser?: RequestHandler,
): Router {
  const router = Router();
  const given = new Map(Object.entries(handlers as Record<string, RouteHandler>));
  for (const route of API_ROUTES.filter((entry) => entry.service === service)) {
    const key = `${route.method} ${route.path}`;
    const handler = given.get(key);
    if (!handler) throw new Error(`${service}: no handler for ${key} of the route table`);
    given.delete(key);
    const guard: RequestHandler[] = [];
    if (route.access !== 'public') {
      if (!requireUser) throw new Error(`${service}: ${key} needs a token check (requireUser)`);
      guard.push(requireUser, requireRole(...route.access));
    }
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'delete';
    router[method](route.path, ...guard, ...(Array.isArray(handler) ? handler : [handler]));
  }
  if (given.size > 0)
    throw new Error(
      `${service}: handlers for routes not in the route table: ${[...given.keys()].join(', ')}`,
    );
  return router;
}
