import type { Request } from 'express';
import { bearerToken, callerOf } from '@crm/server-kit';
import type { Caller } from '../domain/booking.service';

/** The authenticated caller plus their bearer token, forwarded when the auth service must be asked. */
export function callerWithToken(req: Request): Caller {
  const { id, rol } = callerOf(req);
  return { id, rol, bearerToken: bearerToken(req.headers.authorization) ?? '' };
}
