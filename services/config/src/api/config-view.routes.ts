import { viewQuery, viewUpdateQuery } from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import { viewConfigBody } from '@crm/view-config';
import type { ViewConfigService } from '../domain/view-config.service';

/**
 * `/config/view`: the back office reads form configurations; only an admin changes them,
 * and every change is recorded in the access trail (the view's name, never its fields).
 */
export function configViewHandlers(views: ViewConfigService, trail: AuditTrail) {
  return {
    'GET /config/view': [
      validate('query', viewQuery),
      async (_req, res) => {
        const { view, version } = validated(res, 'query', viewQuery);
        res.json(await views.get(view, version));
      },
    ],
    'PUT /config/view': [
      validate('query', viewUpdateQuery),
      validate('body', viewConfigBody),
      async (req, res) => {
        const { view } = validated(res, 'query', viewUpdateQuery);
        const { config, created } = await views.replace(
          view,
          validated(res, 'body', viewConfigBody).fields,
          callerOf(req),
        );
        await trail.recordRequest(req, {
          action: 'config.view.update',
          resource: 'view-config',
          resourceId: view,
        });
        res.status(created ? 201 : 200).json(config);
      },
    ],
  } satisfies Partial<RouteHandlers<'config'>>;
}
