import type { Request } from 'express';
import { z } from 'zod';
import { objectIdField, staffInvitationBody, type StaffList, type StaffNames } from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { StaffService } from '../domain/staff.service';

const idParam = z.object({ id: objectIdField });

/** `/users/staff*` (ADMIN): the "Personal" page. Every change is recorded in the access trail. */
export function staffHandlers(staff: StaffService, trail: AuditTrail) {
  const recorded = (req: Request, action: string, id: string) =>
    trail.recordRequest(req, { action, resource: 'staff', resourceId: id });
  const setDisabled = (disabled: boolean) => [
    validate('params', idParam),
    async (req: Request, res: import('express').Response) => {
      const { id } = validated(res, 'params', idParam);
      const changed = await staff.setDisabled(callerOf(req).id, id, disabled);
      await recorded(req, disabled ? 'staff.disable' : 'staff.enable', id);
      res.json(changed);
    },
  ];

  return {
    'GET /users/staff/names': async (_req, res) => {
      const body: StaffNames = { staff: await staff.names() };
      res.json(body);
    },
    'GET /users/staff': async (_req, res) => {
      const body: StaffList = { staff: await staff.list() };
      res.json(body);
    },
    'POST /users/staff': [
      validate('body', staffInvitationBody),
      async (req, res) => {
        const created = await staff.invite(validated(res, 'body', staffInvitationBody));
        await recorded(req, 'staff.create', created.id);
        res.status(201).json(created);
      },
    ],
    'POST /users/staff/:id/disable': setDisabled(true),
    'POST /users/staff/:id/enable': setDisabled(false),
  } satisfies Partial<RouteHandlers<'auth'>>;
}
