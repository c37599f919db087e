import { GATEWAY_STATUS_HEADER } from '@crm/contracts';
import { deployableVersion } from '@crm/server-kit';
import type { RouteMiddleware } from './proxy-table';

/**
 * "Estado del sistema" asks the reporting service, which asks every service for its version; the
 * gateway has no internal status call of its own (it faces clients), so it says its version on the
 * way: a header it always sets itself on `GET /system/status`, whatever the client sent.
 */
export function gatewayStatusHeader(): RouteMiddleware {
  const value = JSON.stringify(deployableVersion('@crm/gateway'));
  return {
    method: 'GET',
    path: '/system/status',
    handle: (req, _res, next) => {
      req.headers[GATEWAY_STATUS_HEADER] = value;
      next();
    },
  };
}
