import type { Request } from 'express';
import { bearerToken, callerOf } from '@crm/server-kit';
import type { Caller } from '../domain/record';

/** The authenticated caller plus their bearer token, forwarded to the services a record is built from. */
export function callerWithToken(req: Request): Caller {
  const { id, rol } = callerOf(req);
  return { id, rol, bearerToken: bearerToken(req.headers.authorization) ?? '' };
}
