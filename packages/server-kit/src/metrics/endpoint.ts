import type { IncomingMessage, ServerResponse } from 'node:http';
import { metricsRefusal, type MetricsAllowList } from './allow-list';
import type { DeployableMetrics } from './registry';

export const METRICS_PATH = '/metrics';

/**
 * Answers `GET /metrics` in Prometheus' text format, only to a caller whose socket address is in
 * the allow-list and whose request carries no forwarding header (see allow-list.ts); anyone else
 * gets 403 `{message}`. A collector that fails (database away) leaves its gauge out, never the page.
 */
export function metricsEndpoint(metrics: DeployableMetrics, allow: MetricsAllowList) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    const refusal = metricsRefusal(req, allow);
    if (refusal) {
      res.statusCode = 403;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.setHeader('Cache-Control', 'no-store');
      res.end(JSON.stringify({ message: 'Forbidden' }));
      return;
    }
    metrics.text().then(
      (text) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', metrics.contentType);
        res.setHeader('Cache-Control', 'no-store');
        res.end(text);
      },
      () => {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'application/json; charset=utf-8');
        res.end(JSON.stringify({ message: 'Internal server error' }));
      },
    );
  };
}

/** True for `GET`/`HEAD /metrics` (no query string needed; one is ignored). */
export function isMetricsRequest(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  return (
    (req.method === 'GET' || req.method === 'HEAD') &&
    url.startsWith(METRICS_PATH) &&
    (url.length === METRICS_PATH.length || url[METRICS_PATH.length] === '?')
  );
}
