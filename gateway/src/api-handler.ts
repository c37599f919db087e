import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AuthenticatedUser, Logger, TokenService } from '@crm/server-kit';
import { checkBearerToken, publicRouteMatcher, type TokenCheck } from './auth';
import type { GatewayConfig } from './config';
import { createCors } from './cors';
import { prepareForwardedHeaders } from './forwarded-headers';
import { sendJson, sendJsonAndDrain } from './json-response';
import {
  API_PREFIX,
  firstSegment,
  indexProxyTable,
  type Middleware,
  type RouteMiddleware,
  type UpstreamName,
} from './proxy-table';
import { authLimitedRoute, type RateLimiters } from './rate-limit';
import { applySecurityHeaders } from './security-headers';
import type { SessionCheck } from './session-check';
import { IDLE_MESSAGE, type IdleCheck } from './idle-timeout';
import type { Upstream } from './upstream-proxy';
import { startRequestSpan, traceUpstreamCall } from './request-spans';
import { HTTP_MESSAGES } from '@crm/server-kit';

export interface ApiHandlerDeps {
  config: GatewayConfig;
  logger: Logger;
  tokens: TokenService;
  sessionCheck: SessionCheck;
  /** Staff sessions idle for too long are refused (absent: no idle timeout). */
  idleCheck?: IdleCheck;
  rateLimiters: RateLimiters;
  upstreams: ReadonlyMap<UpstreamName, Upstream>;
  routeMiddleware?: readonly RouteMiddleware[];
}

/**
 * Dot segments and encoded slashes/backslashes could make the gateway's view of a path (routing,
 * public-route check) differ from the service's; such paths have no legitimate use in this API.
 */
const AMBIGUOUS_PATH = /(?:^|\/)(?:\.|%2e){1,2}(?:\/|$)|%2f|%5c|\\/i;

/** A request on its way to a service: `servicePath` without the API prefix, `target` with the query. */
interface Forwarding {
  req: IncomingMessage;
  res: ServerResponse;
  upstream: Upstream;
  servicePath: string;
  target: string;
}

function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * The `/api/*` request listener: plain node:http, no Express, no body parsing. Steps, in order:
 * security headers → CORS → forwarded headers (identity headers stripped, X-Request-Id) →
 * Content-Length limit → route lookup → JWT check (unless public) → global rate limit (counts every
 * request, refused or not) → 404/400/401 → session check (protected routes) → the stricter limit
 * of the sign-in family → per-route middleware → proxy (prefix stripped).
 */
export function createApiHandler(deps: ApiHandlerDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const { config, logger, tokens, sessionCheck, idleCheck, rateLimiters, upstreams } = deps;
  /** Why the session of a valid token is refused (ended, or idle too long), or undefined. */
  const sessionRefusal = async (user: AuthenticatedUser, req: IncomingMessage) => {
    if (!(await sessionCheck(user))) return 'Unauthorized';
    if (idleCheck && !(await idleCheck(user, req))) return IDLE_MESSAGE;
    return undefined;
  };
  /** The refusal of a checked token: its own (401/503), or its session's (401), or none. */
  const checkedSession = async (
    check: TokenCheck,
    req: IncomingMessage,
  ): Promise<[number, string] | undefined> => {
    if (!('user' in check)) return [check.status, check.message];
    const refused = await sessionRefusal(check.user, req);
    return refused ? [401, refused] : undefined;
  };
  const hops = config.TRUST_PROXY_HOPS;
  const routes = indexProxyTable();
  const isPublic = publicRouteMatcher();
  const cors = createCors(config.CORS_ORIGINS);
  const routeMiddleware = new Map<string, Middleware>(
    (deps.routeMiddleware ?? []).flatMap((m) =>
      (typeof m.path === 'string' ? [m.path] : m.path).map(
        (path) => [`${m.method} ${path}`, m.handle] as const,
      ),
    ),
  );

  /**
   * Gateway-made refusals. A request with a body is answered at once and its connection closed
   * once the body has been read and discarded (up to a cap), so that the client gets the answer.
   */
  const reject = (req: IncomingMessage, res: ServerResponse, status: number, message: string) => {
    logger.debug(
      { status, method: req.method, path: req.url?.split('?')[0] },
      'request refused at the gateway',
    );
    if (hasBody(req)) sendJsonAndDrain(req, res, status, { message });
    else sendJson(res, status, { message });
  };

  const failed = (res: ServerResponse, error: unknown) => {
    logger.error({ err: error }, 'gateway pipeline failed');
    sendJson(res, 500, { message: 'Internal server error' });
  };

  const forward = ({ req, res, upstream, target }: Forwarding) => {
    if (req.destroyed) return; // the client left while we were checking its session
    req.url = target;
    traceUpstreamCall(req, upstream.name);
    upstream.proxy(req, res, (error) => failed(res, error ?? new Error('proxy did not handle the request')));
  };

  const afterAuth = (call: Forwarding) => {
    const { servicePath } = call;
    const key = `${call.req.method} ${servicePath.length > 1 && servicePath.endsWith('/') ? servicePath.slice(0, -1) : servicePath}`;
    const hook = routeMiddleware.size > 0 ? routeMiddleware.get(key) : undefined;
    if (!hook) return forward(call);
    hook(call.req, call.res, (error) => (error ? failed(call.res, error) : forward(call)));
  };

  /** The sign-in family has a stricter budget of its own (whatever the case or trailing slash). */
  const authRouteLimit = (call: Forwarding) => {
    const limited = authLimitedRoute(call.req.method ?? 'GET', call.servicePath);
    if (!limited) return afterAuth(call);
    rateLimiters.auth(limited)(call.req, call.res, (error) =>
      error ? failed(call.res, error) : afterAuth(call),
    );
  };

  return (req, res) => {
    try {
      const traceId = startRequestSpan(req, res);
      applySecurityHeaders(req, res, hops);
      if (cors(req, res) === 'answered') return;
      prepareForwardedHeaders(req, res, hops, traceId);

      const url = req.url ?? '/';
      const queryAt = url.indexOf('?');
      const path = queryAt === -1 ? url : url.slice(0, queryAt);

      const length = req.headers['content-length'];
      if (length !== undefined && Number(length) > config.bodyLimitBytes) {
        return reject(req, res, 413, HTTP_MESSAGES.tooLarge);
      }
      // The proxy frames a DELETE's body by Content-Length only: a chunked one would reach the
      // service cut off. Such a client must say how long its body is.
      if (req.method === 'DELETE' && length === undefined && req.headers['transfer-encoding'] !== undefined) {
        return reject(req, res, 411, 'Content-Length requerido');
      }

      let upstream: Upstream | undefined;
      let servicePath = '';
      let refusal: [number, string] | undefined;
      if (!path.startsWith(API_PREFIX) || path.charCodeAt(API_PREFIX.length) !== 47 /* / */) {
        refusal = [404, HTTP_MESSAGES.routeNotFound];
      } else {
        servicePath = path.slice(API_PREFIX.length);
        if (AMBIGUOUS_PATH.test(servicePath)) refusal = [400, HTTP_MESSAGES.invalidPath];
        else upstream = upstreams.get(routes.get(firstSegment(servicePath))!);
        if (!upstream && !refusal) refusal = [404, HTTP_MESSAGES.routeNotFound];
      }

      // The token is verified before the rate limit so that the session lookup can go to Redis in
      // the same round trip (auto-pipelined) as the rate-limit counter, instead of one after the other.
      let session: Promise<[number, string] | undefined> | undefined;
      if (!refusal && !isPublic(req.method ?? 'GET', servicePath)) {
        const result = checkBearerToken(tokens, req);
        if (result instanceof Promise) session = result.then((check) => checkedSession(check, req));
        else if ('user' in result) session = checkedSession(result, req);
        else refusal = [result.status, result.message];
      }

      rateLimiters.global(req, res, (error) => {
        if (error) return failed(res, error);
        if (refusal) return reject(req, res, refusal[0], refusal[1]);
        const target = queryAt === -1 ? servicePath : servicePath + url.slice(queryAt);
        const call: Forwarding = { req, res, upstream: upstream!, servicePath, target };
        if (!session) return authRouteLimit(call);
        session.then(
          (refused) => (refused ? reject(req, res, refused[0], refused[1]) : authRouteLimit(call)),
          (sessionError) => failed(res, sessionError),
        );
      });
    } catch (error) {
      failed(res, error);
    }
  };
}
