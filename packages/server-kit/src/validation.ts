import type { RequestHandler } from 'express';
import type { z } from 'zod';
import { badRequest, HTTP_MESSAGES, zodToHttpError } from './errors';

/**
 * Rejects MongoDB operator injection at the edge: no key anywhere in the body or query may start
 * with `$` or contain a dot, whatever the route's schema says.
 */
export function findOperatorKey(value: unknown, path: string[] = [], depth = 0): string | undefined {
  if (depth > 20) return path.join('.');
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findOperatorKey(value[i], [...path, String(i)], depth + 1);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [key, nested] of Object.entries(value)) {
      if (key.startsWith('$') || key.includes('.') || key === '__proto__') return [...path, key].join('.');
      const found = findOperatorKey(nested, [...path, key], depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

export const rejectOperatorInjection: RequestHandler = (req, _res, next) => {
  const offending = findOperatorKey(req.body) ?? findOperatorKey(req.query);
  if (offending !== undefined) {
    const field = offending.split('.')[0] || undefined;
    return next(
      badRequest(HTTP_MESSAGES.operatorsNotAllowed, [{ message: HTTP_MESSAGES.operatorsNotAllowed, field }]),
    );
  }
  next();
};

type Source = 'body' | 'query' | 'params';

/** Parses `req[source]` with a zod schema; the parsed value is available as `res.locals[source]`. */
export function validate<TSchema extends z.ZodType>(source: Source, schema: TSchema): RequestHandler {
  return (req, res, next) => {
    const result = schema.safeParse(req[source] ?? {});
    if (!result.success) return next(zodToHttpError(result.error));
    res.locals[source] = result.data;
    next();
  };
}

/** Reads what `validate(source, schema)` stored, typed by the same schema. */
export function validated<TSchema extends z.ZodType>(
  res: { locals: Record<string, unknown> },
  source: Source,
  _schema: TSchema,
): z.infer<TSchema> {
  return res.locals[source] as z.infer<TSchema>;
}
