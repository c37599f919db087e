import type { IncomingMessage } from 'node:http';
import { PUBLIC_API_ROUTES } from '@crm/contracts';
import { routeMatcher } from './route-patterns';
import {
  bearerToken,
  HTTP_MESSAGES,
  TokenError,
  type AuthenticatedUser,
  type TokenService,
} from '@crm/server-kit';

export interface PublicRoute {
  method: string;
  /** Service path (after /api/v1); `:name` matches exactly one non-empty segment. */
  pattern: string;
}

/**
 * The only routes reachable without a session token, taken from the route/policy table in
 * `@crm/contracts` (`API_ROUTES`, the one source of truth). Everything else needs a valid bearer
 * token at the gateway, and again at the service. Notably `POST /room-calendar` is NOT public even
 * though the old front end sent no token (services/rooms/README.md says why).
 */
export const PUBLIC_ROUTES: readonly PublicRoute[] = PUBLIC_API_ROUTES;

export type PublicRouteMatcher = (method: string, servicePath: string) => boolean;

/** Compiles the list once (route-patterns.ts). */
export function publicRouteMatcher(routes: readonly PublicRoute[] = PUBLIC_ROUTES): PublicRouteMatcher {
  const match = routeMatcher(routes.map((route) => ({ ...route, value: true })));
  return (method, servicePath) => match(method, servicePath) ?? false;
}

export type TokenCheck =
  | { user: AuthenticatedUser }
  | { status: 401; message: 'Unauthorized' | 'TokenExpiredError' }
  | { status: 503; message: string };

function refusal(error: unknown): Exclude<TokenCheck, { user: AuthenticatedUser }> {
  if (error instanceof TokenError && error.reason === 'expired')
    return { status: 401, message: 'TokenExpiredError' };
  // The auth service could not be asked about a key it may have just started using: not the
  // person's fault, and a 401 would sign them out.
  if (error instanceof TokenError && error.reason === 'unavailable')
    return { status: 503, message: HTTP_MESSAGES.unavailable };
  return { status: 401, message: 'Unauthorized' };
}

/**
 * Verifies the bearer token with the shared TokenService (RS256 pinned, `kid` and `exp` required,
 * public keys only). Synchronous for every token whose key is known; a token naming a key not
 * known yet gives a promise that settles once the auth service's keys were asked again.
 */
export function checkBearerToken(
  tokens: TokenService,
  req: IncomingMessage,
): TokenCheck | Promise<TokenCheck> {
  const token = bearerToken(req.headers.authorization);
  if (!token) return { status: 401, message: 'Unauthorized' };
  try {
    return { user: tokens.verify(token) };
  } catch (error) {
    if (!(error instanceof TokenError) || error.reason !== 'unknown-key') return refusal(error);
  }
  return tokens.verifyLearning(token).then((user) => ({ user }), refusal);
}
