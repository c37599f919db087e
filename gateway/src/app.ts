import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import compression from 'compression';
import express, { type Express } from 'express';
import type { Redis } from 'ioredis';
import {
  createErrorHandler,
  createLogger,
  httpMetrics,
  isMetricsRequest,
  metricsEndpoint,
  notFoundHandler,
  type HttpMetrics,
  TokenService,
  verificationKeysFor,
  type Logger,
} from '@crm/server-kit';
import { createApiHandler } from './api-handler';
import type { GatewayConfig } from './config';
import { healthRoutes } from './health.routes';
import { sendJson } from './json-response';
import type { RouteMiddleware } from './proxy-table';
import { createRateLimiters } from './rate-limit';
import { createRedisClient } from './redis-client';
import { applySecurityHeaders } from './security-headers';
import { createSessionChecker, type SessionChecker } from './session-check';
import { createIdleCheck } from './idle-timeout';
import { staticFrontends } from './static-frontends';
import { createUpstreams } from './upstream-proxy';
import { gatewayMetrics } from './route-metrics';
import { HTTP_MESSAGES } from '@crm/server-kit';

export interface GatewayOptions {
  logger?: Logger;
  /** A Redis client to use (and not close); by default the gateway opens one from REDIS_URL. */
  redis?: Redis;
  /** Per-route hooks on the proxy path, e.g. a cache for `GET /config/view`. */
  routeMiddleware?: readonly RouteMiddleware[];
  /** The token check to share (the config cache reads roles with it); by default one of its own. */
  tokens?: TokenService;
  /** Its Prometheus registry and `/metrics` allow-list; by default made from the configuration. */
  metrics?: HttpMetrics;
}

/** The gateway's token check: the auth service's published keys (or `JWT_PUBLIC_KEYS`), never a secret. */
export function gatewayTokens(config: GatewayConfig, logger?: Logger): TokenService {
  const tokens = new TokenService(verificationKeysFor(config, logger)!);
  void tokens.keys.refresh(); // learn them now; a token naming an unknown key asks again
  return tokens;
}

export interface Gateway {
  /** The node:http request listener: `/api/*` takes the lean proxy path, the rest goes to Express. */
  listener: RequestListener;
  /** Express app for everything that is not `/api/*` (health, frontends). */
  app: Express;
  redis: Redis;
  /** The ended-session check (whether it remembers answers right now, for tests). */
  sessions: Pick<SessionChecker, 'remembering'>;
  /** Its Prometheus metrics (`GET /metrics`, loopback and private networks only, never proxied). */
  metrics: HttpMetrics;
  /** `/readyz` answers 503 from now on, so load balancers stop sending traffic before we stop. */
  startDraining: () => void;
  close: () => Promise<void>;
}

function isApiPath(url: string): boolean {
  return url.startsWith('/api') && (url.length === 4 || url[4] === '/' || url[4] === '?');
}

export function createGateway(config: GatewayConfig, options: GatewayOptions = {}): Gateway {
  const logger = options.logger ?? createLogger('gateway', config.LOG_LEVEL);
  const redis = options.redis ?? createRedisClient(config.REDIS_URL, config.REDIS_COMMAND_TIMEOUT_MS, logger);
  const ownsRedis = options.redis === undefined;
  // One TokenService for the process: it remembers verified tokens, so a known token costs no RSA check.
  const tokens = options.tokens ?? gatewayTokens(config, logger);
  const upstreams = createUpstreams(config, logger);
  // Metrics: requests by route, rate-limit refusals, and the gateway's own `/metrics`.
  const metrics = options.metrics ?? httpMetrics('gateway', config.METRICS_ALLOW_CIDRS);
  const counted = gatewayMetrics(metrics.metrics);
  const answerMetrics = metricsEndpoint(metrics.metrics, metrics.allow);
  const rateLimiters = createRateLimiters(config, redis, logger, counted.rateLimited);
  const sessions = createSessionChecker(redis, logger, config.SESSION_CHECK_CACHE_MS);
  let draining = false;

  const api = createApiHandler({
    config,
    logger,
    tokens,
    sessionCheck: sessions.check,
    idleCheck: createIdleCheck(redis, logger, {
      timeoutMs: config.STAFF_IDLE_TIMEOUT_MINUTES * 60_000,
      roles: ['DOCTOR', 'ADMIN'],
    }),
    rateLimiters,
    upstreams,
    routeMiddleware: options.routeMiddleware,
  });

  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use((req, res, next) => {
    applySecurityHeaders(req, res, config.TRUST_PROXY_HOPS);
    next();
  });
  app.use(healthRoutes({ upstreams, redis, isDraining: () => draining }));
  app.use(compression());
  app.use(
    staticFrontends(config.FRONTENDS_DIR, config.REDSYS_URL ? [new URL(config.REDSYS_URL).origin] : []),
  );
  app.use(notFoundHandler);
  app.use(createErrorHandler(logger));

  const listener: RequestListener = (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '';
    // Only `/metrics` itself: a service's `/metrics` is no route of the table, so never proxied.
    if (isMetricsRequest(req)) return answerMetrics(req, res);
    counted.observe(req, res);
    if (isApiPath(url)) return api(req, res);
    // Absolute-form ("GET http://host/…") and "*" targets are for forward proxies, not for us.
    if (url.charCodeAt(0) !== 47 /* / */) return sendJson(res, 400, { message: HTTP_MESSAGES.invalidPath });
    app(req, res);
  };

  return {
    listener,
    app,
    redis,
    sessions,
    metrics,
    startDraining: () => {
      draining = true;
    },
    close: async () => {
      rateLimiters.close();
      await sessions.close();
      for (const upstream of upstreams.values()) upstream.agent.destroy();
      if (ownsRedis) await redis.quit().catch(() => redis.disconnect());
    },
  };
}
