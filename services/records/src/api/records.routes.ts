import type { Request } from 'express';
import {
  createRecordBody,
  recordIdParam,
  recordsQuery,
  updateRecordBody,
  type RecordsPage,
  type RecordView,
  paged,
} from '@crm/contracts';
import { callerOf, validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { ClinicalRecord } from '../domain/record';
import type { RecordService } from '../domain/record.service';
import { callerWithToken } from './caller';
import { toRecordView } from './record.view';

/** `GET /records/appointment/:id` (an appointment's id): its record, or null while it has none. */
export interface AppointmentRecordAnswer {
  record: RecordView | null;
}

/**
 * `/records*`: doctors and admins only (the route table). Bodies are never logged
 * (clinical data). Every call that answers records is recorded in the access trail — ids only,
 * never the content.
 */
export function recordsHandlers(records: RecordService, trail: AuditTrail) {
  /** Records `action` on one record (its patient, its id), before it is answered. */
  const recordAccess = (req: Request, action: string, record: ClinicalRecord) =>
    trail.recordRequest(req, {
      action,
      resource: 'record',
      resourceId: record.id,
      patientIds: [record.userId],
    });

  return {
    /** A patient's own records: not in the access trail (it is "who on the staff saw my data"). */
    'GET /records/mine': async (req, res) => {
      res.json({ records: (await records.mine(callerOf(req).id)).map(toRecordView) });
    },
    'POST /records': [
      validate('body', createRecordBody),
      async (req, res) => {
        const record = await records.create(callerWithToken(req), validated(res, 'body', createRecordBody));
        await recordAccess(req, 'record.create', record);
        res.status(201).json(toRecordView(record));
      },
    ],
    'GET /records': [
      validate('query', recordsQuery),
      async (req, res) => {
        const query = validated(res, 'query', recordsQuery);
        const { items, total, totalIsEstimate } = await records.list(query);
        await trail.recordRequest(req, {
          action: 'record.list',
          resource: 'record',
          patientIds: [...new Set(items.map((record) => record.userId))],
        });
        const body: RecordsPage = {
          records: items.map(toRecordView),
          ...paged(total, query.page, query.limit, totalIsEstimate),
        };
        res.json(body);
      },
    ],
    'GET /records/appointment/:id': [
      validate('params', recordIdParam),
      async (req, res) => {
        const record = await records.ofAppointment(validated(res, 'params', recordIdParam).id);
        // No record yet: nothing of a patient's clinical data was read.
        if (record) await recordAccess(req, 'record.read', record);
        const body: AppointmentRecordAnswer = { record: record ? toRecordView(record) : null };
        res.json(body);
      },
    ],
    'GET /records/:id': [
      validate('params', recordIdParam),
      async (req, res) => {
        const record = await records.get(validated(res, 'params', recordIdParam).id);
        await recordAccess(req, 'record.read', record);
        res.json(toRecordView(record));
      },
    ],
    'PUT /records/:id': [
      validate('params', recordIdParam),
      validate('body', updateRecordBody),
      async (req, res) => {
        const { id } = validated(res, 'params', recordIdParam);
        const record = await records.update(
          callerWithToken(req),
          id,
          validated(res, 'body', updateRecordBody).metadata,
        );
        await recordAccess(req, 'record.update', record);
        res.json(toRecordView(record));
      },
    ],
  } satisfies Partial<RouteHandlers<'records'>>;
}
