import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { Logger } from './logger';

export interface FieldError {
  message: string;
  field?: string;
}

/** The one error shape every service answers with: `{ message, errors?: [{ message, field? }] }`. */
export interface ErrorBody {
  message: string;
  errors?: FieldError[];
}

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldError[],
  ) {
    super(message);
    this.name = 'HttpError';
  }

  toBody(): ErrorBody {
    return this.errors ? { message: this.message, errors: this.errors } : { message: this.message };
  }
}

export const badRequest = (message: string, errors?: FieldError[]) => new HttpError(400, message, errors);
export const unauthorized = (message = 'Unauthorized') => new HttpError(401, message);
export const forbidden = (message = 'Forbidden') => new HttpError(403, message);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const conflict = (message: string, errors?: FieldError[]) => new HttpError(409, message, errors);
export const serviceUnavailable = (message = 'Service temporarily unavailable') =>
  new HttpError(503, message);

/** A single field problem, as the front end shows it under the field. */
export const fieldError = (status: number, field: string, message: string) =>
  new HttpError(status, message, [{ message, field }]);

export function zodToHttpError(error: ZodError): HttpError {
  const errors = error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    return field ? { message: issue.message, field } : { message: issue.message };
  });
  return badRequest(errors[0]?.message ?? 'Invalid request', errors);
}

/** Errors raised by the database driver when the database cannot be reached. */
function isDatabaseUnavailable(error: Error): boolean {
  return (
    /^Mongo(ose)?(ServerSelection|Network|NotConnected|Timeout|TopologyClosed|ServerClosed)/.test(
      error.name,
    ) ||
    (error.name === 'MongooseError' &&
      /buffering timed out|before initial connection|Connection .* closed|client must be connected/i.test(
        error.message,
      )) ||
    error.name === 'MongoPoolClearedError'
  );
}

/** Body-parser tags its errors with `type`; they are the client's fault, never a 500. */
function bodyParserError(error: Error & { type?: string; status?: number }): HttpError | undefined {
  switch (error.type) {
    case 'entity.too.large':
      return new HttpError(413, 'Request body too large');
    case 'entity.parse.failed':
      return badRequest('Malformed JSON body');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, 'Unsupported content encoding');
    case 'request.aborted':
      return badRequest('Request aborted');
    default:
      return error.status && error.status >= 400 && error.status < 500
        ? new HttpError(error.status, 'Invalid request')
        : undefined;
  }
}

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ZodError) return zodToHttpError(error);
  if (error instanceof Error) {
    const fromBody = bodyParserError(error);
    if (fromBody) return fromBody;
    if (isDatabaseUnavailable(error)) return serviceUnavailable();
    if ((error as { code?: number }).code === 11000) return conflict('Conflict');
    if (error.name === 'CastError' || error.name === 'ValidationError') return badRequest('Invalid request');
  }
  return new HttpError(500, 'Internal server error');
}

export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    const httpError = toHttpError(error);
    if (httpError.status === 500) {
      logger.error({ err: error, method: req.method, path: req.path }, 'request failed');
    } else if (httpError.status >= 500) {
      logger.warn(
        { reason: (error as Error).message, method: req.method, path: req.path },
        'dependency unavailable',
      );
    }
    res.status(httpError.status).json(httpError.toBody());
  };
}

export const notFoundHandler: RequestHandler = (_req, _res, next) => next(notFound('Route not found'));

/** Lets async route handlers throw; Express 5 forwards rejected promises, this keeps types tidy. */
export type AsyncHandler = RequestHandler;
