/**
 * Prometheus metrics of a deployable (docs/operations.md, "Metrics and alerts"): its registry, the
 * HTTP and event-bus counters, and `GET /metrics` for loopback and private networks only. The
 * gauges that read a service's database and broker are in `./service-gauges` (service entry only).
 */
import type { RequestHandler } from 'express';
import { parseAllowList, type MetricsAllowList } from './allow-list';
import { isMetricsRequest, metricsEndpoint } from './endpoint';
import { httpMetricsMiddleware } from './http';
import { DeployableMetrics } from './registry';

export * from './allow-list';
export * from './endpoint';
export * from './event-bus';
export * from './http';
export * from './queue-depth';
export * from './registry';

/** What a deployable's HTTP app needs to count requests and answer `/metrics`. */
export interface HttpMetrics {
  metrics: DeployableMetrics;
  allow: MetricsAllowList;
}

export function httpMetrics(service: string, allowCidrs: string): HttpMetrics {
  return { metrics: new DeployableMetrics(service), allow: parseAllowList(allowCidrs) };
}

/** First in a service's Express stack: counts every request and answers `GET /metrics`. */
export function metricsMiddleware({ metrics, allow }: HttpMetrics): RequestHandler {
  const count = httpMetricsMiddleware(metrics);
  const answer = metricsEndpoint(metrics, allow);
  return (req, res, next) => {
    if (isMetricsRequest(req)) return answer(req, res);
    count(req, res, next);
  };
}
