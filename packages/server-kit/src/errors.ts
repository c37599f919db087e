import type { ErrorRequestHandler, RequestHandler } from 'express';
import { ZodError } from 'zod';
import type { Logger } from './logger';
import { isDuplicateKey } from './duplicate-key';

/**
 * The generic answers a person may see (an error dialog shows the server's message), in Spanish like
 * the rest of the product. `Unauthorized`, `TokenExpiredError` and `Internal server error` stay as
 * docs/product/README.md#language names them: the front ends compare them.
 */
export const HTTP_MESSAGES = {
  forbidden: 'No tiene permiso para realizar esta acción',
  notFound: 'No encontrado',
  routeNotFound: 'Ruta no encontrada',
  unavailable: 'El servicio no está disponible en este momento. Inténtelo de nuevo en unos minutos.',
  invalidRequest: 'La petición no es válida',
  tooLarge: 'La petición es demasiado grande',
  malformedJson: 'El cuerpo de la petición no es un JSON válido',
  unsupportedEncoding: 'Codificación de contenido no admitida',
  aborted: 'La petición se interrumpió',
  conflict: 'Los datos ya existen o han cambiado; recargue la página',
  operatorsNotAllowed: 'Los datos no pueden contener operadores',
  invalidPath: 'La ruta de la petición no es válida',
  originNotAllowed: 'Origen no permitido',
  gatewayTimeout: 'El servicio ha tardado demasiado en responder. Inténtelo de nuevo.',
  badGateway: 'No se pudo contactar con el servicio. Inténtelo de nuevo en unos minutos.',
} as const;

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
export const forbidden = (message: string = HTTP_MESSAGES.forbidden) => new HttpError(403, message);
export const notFound = (message: string = HTTP_MESSAGES.notFound) => new HttpError(404, message);
export const conflict = (message: string, errors?: FieldError[]) => new HttpError(409, message, errors);
export const serviceUnavailable = (message: string = HTTP_MESSAGES.unavailable) =>
  new HttpError(503, message);

/** A single field problem, as the front end shows it under the field. */
export const fieldError = (status: number, field: string, message: string) =>
  new HttpError(status, message, [{ message, field }]);

export function zodToHttpError(error: ZodError): HttpError {
  const errors = error.issues.map((issue) => {
    const field = issue.path.map(String).join('.');
    return field ? { message: issue.message, field } : { message: issue.message };
  });
  return badRequest(errors[0]?.message ?? HTTP_MESSAGES.invalidRequest, errors);
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
      return new HttpError(413, HTTP_MESSAGES.tooLarge);
    case 'entity.parse.failed':
      return badRequest(HTTP_MESSAGES.malformedJson);
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new HttpError(415, HTTP_MESSAGES.unsupportedEncoding);
    case 'request.aborted':
      return badRequest(HTTP_MESSAGES.aborted);
    default:
      return error.status && error.status >= 400 && error.status < 500
        ? new HttpError(error.status, HTTP_MESSAGES.invalidRequest)
        : undefined;
  }
}

/** The server stopped a read that ran past its `maxTimeMS` (service/mongo.ts). */
const isReadTimeLimit = (error: Error) =>
  error.name === 'MongoServerError' && (error as Error & { code?: number }).code === 50;

export function toHttpError(error: unknown): HttpError {
  if (error instanceof HttpError) return error;
  if (error instanceof ZodError) return zodToHttpError(error);
  if (error instanceof Error) {
    const fromBody = bodyParserError(error);
    if (fromBody) return fromBody;
    if (isDatabaseUnavailable(error)) return serviceUnavailable();
    if (isReadTimeLimit(error)) return serviceUnavailable(HTTP_MESSAGES.gatewayTimeout);
    if (isDuplicateKey(error)) return conflict(HTTP_MESSAGES.conflict);
    if (error.name === 'CastError' || error.name === 'ValidationError')
      return badRequest(HTTP_MESSAGES.invalidRequest);
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

export const notFoundHandler: RequestHandler = (_req, _res, next) =>
  next(notFound(HTTP_MESSAGES.routeNotFound));

/** Lets async route handlers throw; Express 5 forwards rejected promises, this keeps types tidy. */
export type AsyncHandler = RequestHandler;
