import { deleteAccountBody, personalDataExportQuery } from '@crm/contracts';
import { bearerToken, callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { PrivacyService } from '../domain/privacy.service';
import { personalDataPdf } from './personal-data.pdf';

/** `/users/me*` (PACIENT): the copy of one's data, and the erasure of one's account; both recorded. */
export function privacyHandlers(privacy: PrivacyService, trail: AuditTrail) {
  return {
    'GET /users/me/export': [
      validate('query', personalDataExportQuery),
      async (req, res) => {
        const caller = callerOf(req);
        const data = await privacy.export({
          id: caller.id,
          bearerToken: bearerToken(req.headers.authorization) ?? '',
        });
        await trail.recordRequest(req, {
          action: 'data.export',
          resource: 'user',
          resourceId: caller.id,
          patientIds: [caller.id],
        });
        const day = data.exportedAt.slice(0, 10);
        if (validated(res, 'query', personalDataExportQuery).format === 'pdf') {
          res
            .type('application/pdf')
            .attachment(`mis-datos-${day}.pdf`)
            .send(await personalDataPdf(data));
          return;
        }
        res.attachment(`mis-datos-${day}.json`).json(data);
      },
    ],
    'DELETE /users/me': [
      validate('body', deleteAccountBody),
      async (req, res) => {
        const caller = callerOf(req);
        const { password } = validated(res, 'body', deleteAccountBody);
        await privacy.erase(caller.id, password, req.ip ?? 'unknown');
        await trail.recordRequest(req, {
          action: 'account.erase',
          resource: 'user',
          resourceId: caller.id,
          patientIds: [caller.id],
        });
        res.json({ message: 'Cuenta eliminada' });
      },
    ],
  } satisfies Partial<RouteHandlers<'auth'>>;
}
