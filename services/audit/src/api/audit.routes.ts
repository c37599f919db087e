import { once } from 'node:events';
import type { Response } from 'express';
import {
  auditExportQuery,
  auditMineQuery,
  auditQuery,
  type AuditPage,
  type MyAuditPage,
} from '@crm/contracts';
import { callerOf, CSV_BOM, validate, validated, type Logger, type RouteHandlers } from '@crm/server-kit';
import type { AuditTrail } from '@crm/server-kit/service';
import type { AuditService } from '../domain/audit.service';
import { CSV_HEADER, toCsvLine, toEntryView, toMyEntryView } from './audit.view';

/**
 * The trail's HTTP face: three reads (roles from the route table); an ADMIN's reads and exports are
 * recorded in the trail itself. There is deliberately no route
 * that changes or deletes an entry (PUT, PATCH or DELETE on any /audit path answers 404).
 */
export function auditHandlers(audit: AuditService, trail: AuditTrail, logger: Logger) {
  return {
    'GET /audit': [
      validate('query', auditQuery),
      async (req, res) => {
        const query = validated(res, 'query', auditQuery);
        // Reading the trail is itself recorded, before the answer: who looked, and at which patient.
        // The patient is named as the resource, not as a patient of the entry, so that reading a
        // patient's trail does not add rows to it.
        await trail.recordRequest(req, {
          action: 'audit.read',
          resource: 'audit-trail',
          ...(query.patientId ? { resourceId: query.patientId } : {}),
          outcome: 'success',
        });
        const { rows, ...page } = await audit.search(query);
        const body: AuditPage = { entries: rows.map(toEntryView), ...page };
        res.setHeader('Cache-Control', 'no-store');
        res.json(body);
      },
    ],
    'GET /audit/mine': [
      validate('query', auditMineQuery),
      async (req, res) => {
        const { rows, ...page } = await audit.mine(callerOf(req).id, validated(res, 'query', auditMineQuery));
        const body: MyAuditPage = { entries: rows.map(toMyEntryView), ...page };
        res.setHeader('Cache-Control', 'no-store');
        res.json(body);
      },
    ],
    'GET /audit/export.csv': [
      validate('query', auditExportQuery),
      async (req, res) => {
        const { patients, rows } = await audit.prepareExport(validated(res, 'query', auditExportQuery));
        // Recorded before a byte leaves: an export that cannot be recorded does not happen (503).
        await trail.recordRequest(req, {
          action: 'audit.export',
          resource: 'audit-trail',
          patientIds: patients,
          outcome: 'success',
        });
        const day = new Date().toISOString().slice(0, 10);
        res.status(200);
        res.setHeader('Content-Type', 'text/csv; charset=utf-8');
        res.setHeader('Content-Disposition', `attachment; filename="registro-de-accesos-${day}.csv"`);
        res.setHeader('Cache-Control', 'no-store');
        await writeAll(res, CSV_BOM + CSV_HEADER);
        try {
          for await (const row of rows) await writeAll(res, toCsvLine(row));
          res.end();
        } catch (error) {
          // Headers are gone: cut the response so the client sees an incomplete download, not a short file.
          logger.warn({ err: (error as Error).message }, 'audit export interrupted');
          res.destroy(error as Error);
        }
      },
    ],
  } satisfies RouteHandlers<'audit'>;
}

/** Writes with backpressure, so a large export streams at the client's pace instead of piling up in memory. */
async function writeAll(res: Response, chunk: string): Promise<void> {
  if (res.destroyed) throw new Error('client went away');
  if (res.write(chunk)) return;
  await Promise.race([once(res, 'drain'), once(res, 'close')]);
}
