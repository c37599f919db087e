import { reportSummaryQuery } from '@crm/contracts';
import { validate, validated, type RouteHandlers } from '@crm/server-kit';
import type { ReportingService } from '../domain/reporting.service';

/** `GET /reports/summary?from&to` (ADMIN): the dashboard's figures, day by day and in total. */
export function reportsHandlers(reporting: ReportingService) {
  return {
    'GET /reports/summary': [
      validate('query', reportSummaryQuery),
      async (_req, res) => {
        const { from, to } = validated(res, 'query', reportSummaryQuery);
        res.setHeader('Cache-Control', 'no-store');
        res.json(await reporting.summary(from, to));
      },
    ],
  } satisfies Partial<RouteHandlers<'reporting'>>;
}
