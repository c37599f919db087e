import { centreClosuresPutBody, centreProfileBody } from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { CentreProfileService } from '../domain/centre-profile.service';

/**
 * `/config/centre`: the centre profile. Anyone reads it (the public site shows it; the gateway
 * caches it); only an admin stores a new version, recorded in the access trail.
 */
export function centreProfileHandlers(centre: CentreProfileService, trail: AuditTrail) {
  return {
    'GET /config/centre': async (_req, res) => {
      res.json(await centre.current());
    },
    'PUT /config/centre': [
      validate('body', centreProfileBody),
      async (req, res) => {
        const profile = await centre.replace(validated(res, 'body', centreProfileBody), callerOf(req));
        await trail.recordRequest(req, { action: 'config.centre.update', resource: 'centre' });
        res.json(profile);
      },
    ],
    'PUT /config/centre/closures': [
      validate('body', centreClosuresPutBody),
      async (req, res) => {
        const closures = validated(res, 'body', centreClosuresPutBody);
        const profile = await centre.replaceClosures(closures, callerOf(req));
        await trail.recordRequest(req, { action: 'config.centre.closures', resource: 'centre' });
        res.json(profile);
      },
    ],
  } satisfies Partial<RouteHandlers<'config'>>;
}
