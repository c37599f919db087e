import { Router, type RequestHandler } from 'express';
import { reportSummaryQuery } from '@crm/contracts';
import { requireRole, validate, validated } from '@crm/server-kit';
import type { ReportingService } from '../domain/reporting.service';

/** `GET /reports/summary?from&to` (ADMIN): the dashboard's figures, day by day and in total. */
export function reportsRoutes(reporting: ReportingService, requireUser: RequestHandler): Router {
  const router = Router();
  router.get(
    '/reports/summary',
    requireUser,
    requireRole('ADMIN'),
    validate('query', reportSummaryQuery),
    async (_req, res) => {
      const { from, to } = validated(res, 'query', reportSummaryQuery);
      res.setHeader('Cache-Control', 'no-store');
      res.json(await reporting.summary(from, to));
    },
  );
  return router;
}
