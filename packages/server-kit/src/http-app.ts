import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { createErrorHandler, notFoundHandler } from './errors';
import { healthRoutes, type ReadinessCheck } from './health';
import type { Logger } from './logger';
import { metricsMiddleware, type HttpMetrics } from './metrics';
import { requestLog } from './request-log';
import { requestIdFor, runWithCorrelationId } from './request-context';
import { rejectOperatorInjection } from './validation';

export interface HttpAppOptions {
  logger: Logger;
  readiness: ReadinessCheck[];
  /** Mounts the service's routes (under the paths of the route table, without the /api/v1 prefix). */
  routes: (app: Express) => void;
  bodyLimit?: string;
  /** Request counters and `GET /metrics` (loopback and private networks only); absent: none. */
  metrics?: HttpMetrics;
}

/** A URL as logs and traces may hold it: e-mailed one-time tokens redacted, no query string. */
export { redactPath as redactUrl } from './tracing/redact';

/**
 * Correlation id: the gateway's X-Request-Id, else the trace id, else a new one; echoed back and put
 * on every log line.
 */
const correlation: RequestHandler = (req, res, next) => {
  const id = requestIdFor(req.headers['x-request-id']);
  req.headers['x-request-id'] = id;
  res.setHeader('X-Request-Id', id);
  runWithCorrelationId(id, next);
};

/** The same Express stack for every service: security headers, limits, logging, health, errors. */
export function createHttpApp({
  logger,
  readiness,
  routes,
  bodyLimit = '100kb',
  metrics,
}: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, uniquelocal');
  app.set('query parser', 'simple');
  // Metrics: first, so that every answer is counted and a scrape costs nothing else.
  if (metrics) app.use(metricsMiddleware(metrics));
  app.use(helmet());
  app.use(correlation);
  app.use(requestLog(logger));
  app.use(healthRoutes(readiness));
  app.use(express.json({ limit: bodyLimit, strict: true }));
  app.use(rejectOperatorInjection);
  routes(app);
  app.use(notFoundHandler);
  app.use(createErrorHandler(logger));
  return app;
}
