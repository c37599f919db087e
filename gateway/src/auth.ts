import type { IncomingMessage } from 'node:http';
import { PUBLIC_API_ROUTES } from '@crm/contracts';
import { bearerToken, TokenError, type AuthenticatedUser, type TokenService } from '@crm/server-kit';

export interface PublicRoute {
  method: string;
  /** Service path (after /api/v1); `:name` matches exactly one non-empty segment. */
  pattern: string;
}

/**
 * The only routes reachable without a session token (SPEC §7), taken from the route/policy table in
 * `@crm/contracts` (`API_ROUTES`, the one source of truth). Everything else needs a valid bearer
 * token at the gateway, and again at the service. Notably `POST /room-calendar` is NOT public even
 * though the old front end sent no token (see ARCHITECTURE "Decisions").
 */
export const PUBLIC_ROUTES: readonly PublicRoute[] = PUBLIC_API_ROUTES;

function patternToRegExp(pattern: string): RegExp {
  const body = pattern
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  // An optional trailing slash, because the services' routers treat "/rooms/" like "/rooms".
  return new RegExp(`^${body}/?$`);
}

export type PublicRouteMatcher = (method: string, servicePath: string) => boolean;

/** Compiles the list once. HEAD is treated like GET, as Express does. Matching is case-sensitive. */
export function publicRouteMatcher(routes: readonly PublicRoute[] = PUBLIC_ROUTES): PublicRouteMatcher {
  const byMethod = new Map<string, RegExp[]>();
  for (const route of routes) {
    const list = byMethod.get(route.method) ?? [];
    list.push(patternToRegExp(route.pattern));
    byMethod.set(route.method, list);
  }
  return (method, servicePath) => {
    const candidates = byMethod.get(method === 'HEAD' ? 'GET' : method);
    if (!candidates) return false;
    for (const regexp of candidates) if (regexp.test(servicePath)) return true;
    return false;
  };
}

export type TokenCheck = { user: AuthenticatedUser } | { message: 'Unauthorized' | 'TokenExpiredError' };

/**
 * Verifies the bearer token with the shared TokenService (HS256 pinned, `exp` required, KeyObject
 * made once). The answer's message is what the client gets with the 401.
 */
export function checkBearerToken(tokens: TokenService, req: IncomingMessage): TokenCheck {
  const token = bearerToken(req.headers.authorization);
  if (!token) return { message: 'Unauthorized' };
  try {
    return { user: tokens.verify(token) };
  } catch (error) {
    if (error instanceof TokenError && error.reason === 'expired') return { message: 'TokenExpiredError' };
    return { message: 'Unauthorized' };
  }
}
