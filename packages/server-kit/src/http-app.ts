import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import { pinoHttp } from 'pino-http';
import { createErrorHandler, notFoundHandler } from './errors';
import { healthRoutes, type ReadinessCheck } from './health';
import type { Logger } from './logger';
import { requestIdFor, runWithCorrelationId } from './request-context';
import { rejectOperatorInjection } from './validation';

export interface HttpAppOptions {
  logger: Logger;
  readiness: ReadinessCheck[];
  /** Mounts the service's routes (under the paths of the route table, without the /api/v1 prefix). */
  routes: (app: Express) => void;
  bodyLimit?: string;
}

/**
 * One-time tokens travel in the path of e-mailed links (account confirmation, password reset and
 * invitation, a waiting-list offer); they must not reach the logs.
 */
export function redactUrl(url: string | undefined): string | undefined {
  return url
    ?.split('?')[0]
    ?.replace(
      /\/(confirmAccount|resetPassword|confirm-account|reset-password|offer)\/[^/]+/,
      '/$1/[redacted]',
    );
}

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
export function createHttpApp({ logger, readiness, routes, bodyLimit = '100kb' }: HttpAppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', 'loopback, uniquelocal');
  app.set('query parser', 'simple');
  app.use(helmet());
  app.use(correlation);
  app.use(
    pinoHttp({
      logger,
      genReqId: (req) => String(req.headers['x-request-id']),
      autoLogging: { ignore: (req) => req.url === '/healthz' || req.url === '/readyz' },
      // The error handler already logged the cause; pino-http's synthetic 5xx error adds only noise.
      customLogLevel: (_req, res) => (res.statusCode >= 500 ? 'warn' : 'info'),
      customAttributeKeys: { err: 'httpError' },
      serializers: {
        httpError: () => undefined,
        req: (req) => ({ id: req.id, method: req.method, url: redactUrl(req.url) }),
        res: (res) => ({ statusCode: res.statusCode }),
      },
    }),
  );
  app.use(healthRoutes(readiness));
  app.use(express.json({ limit: bodyLimit, strict: true }));
  app.use(rejectOperatorInjection);
  routes(app);
  app.use(notFoundHandler);
  app.use(createErrorHandler(logger));
  return app;
}
