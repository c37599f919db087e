import { Router, type RequestHandler } from 'express';
import {
  createRecordBody,
  recordIdParam,
  recordsQuery,
  updateRecordBody,
  type RecordsPage,
} from '@crm/contracts';
import { requireRole, validate, validated } from '@crm/server-kit';
import type { RecordService } from '../domain/record.service';
import { callerWithToken } from './caller';
import { toRecordView } from './record.view';

/** `/records*` (SPEC §7): doctors and admins only. Bodies are never logged (clinical data). */
export function recordsRoutes(records: RecordService, requireUser: RequestHandler): Router {
  const router = Router();
  const staff = [requireUser, requireRole('DOCTOR', 'ADMIN')];

  router.post('/records', ...staff, validate('body', createRecordBody), async (req, res) => {
    const record = await records.create(callerWithToken(req), validated(res, 'body', createRecordBody));
    res.status(201).json(toRecordView(record));
  });

  router.get('/records', ...staff, validate('query', recordsQuery), async (_req, res) => {
    const query = validated(res, 'query', recordsQuery);
    const { items, total } = await records.list(query);
    const body: RecordsPage = {
      records: items.map(toRecordView),
      total,
      page: query.page,
      totalPages: Math.max(1, Math.ceil(total / query.limit)),
      limit: query.limit,
    };
    res.json(body);
  });

  router.get('/records/:id', ...staff, validate('params', recordIdParam), async (_req, res) => {
    res.json(toRecordView(await records.get(validated(res, 'params', recordIdParam).id)));
  });

  router.put(
    '/records/:id',
    ...staff,
    validate('params', recordIdParam),
    validate('body', updateRecordBody),
    async (req, res) => {
      const { id } = validated(res, 'params', recordIdParam);
      const record = await records.update(
        callerWithToken(req),
        id,
        validated(res, 'body', updateRecordBody).metadata,
      );
      res.json(toRecordView(record));
    },
  );

  return router;
}
