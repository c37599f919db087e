import type { Request } from 'express';
import type { Role } from '@crm/contracts';
import type { AuditTrail } from '@crm/server-kit/service';

/** A completed sign-in in the access trail (after the password, or after the second factor). */
export const recordSignIn = (trail: AuditTrail, req: Request, session: { id: string; rol: Role }) =>
  trail.recordRequest(req, {
    action: 'auth.signin',
    resource: 'account',
    resourceId: session.id,
    outcome: 'success',
    actor: { id: session.id, rol: session.rol },
  });
