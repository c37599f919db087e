/**
 * Gauges computed at scrape time from a service's database and broker. Kept out of the metrics
 * entry (`./index.ts`): they load the MongoDB side of the event bus, which the gateway never loads.
 */
import { oldestOutboxEntryAgeSeconds, type OutboxSource } from '@crm/event-bus/outbox';
import type { DeployableMetrics } from './registry';

/** `crm_outbox_lag_seconds`: age of the oldest event waiting in the service's outboxes (0: none). */
export function outboxLagGauge(metrics: DeployableMetrics, sources: () => readonly OutboxSource[]): void {
  metrics.gauge(
    'crm_outbox_lag_seconds',
    'Age in seconds of the oldest event not yet published from the outbox (0 when none waits)',
    [],
    async (gauge) => {
      const list = sources();
      if (list.length === 0) return gauge.set(0);
      // The database away: the gauge keeps its last value rather than failing the scrape.
      await oldestOutboxEntryAgeSeconds(list).then(
        (seconds) => gauge.set(seconds),
        () => undefined,
      );
    },
  );
}

/**
 * `crm_sweep_lag_seconds{sweep}`: seconds since each background task (the no-show sweep, the waiting
 * list's offers, due reminders, …) last completed a pass; before its first, since the service
 * started. A sweep that keeps failing or hangs grows without bound.
 */
export function sweepLagGauge(metrics: DeployableMetrics) {
  const startedAt = Date.now();
  const lastPass = new Map<string, number>();
  metrics.gauge(
    'crm_sweep_lag_seconds',
    'Seconds since a background sweep last completed a pass',
    ['sweep'],
    (gauge) => {
      const now = Date.now();
      for (const [sweep, at] of lastPass) gauge.set({ sweep }, Math.max(0, (now - at) / 1000));
    },
  );
  return {
    /** A task the service runs: counted from now until its first pass. */
    registered(name: string) {
      if (!lastPass.has(sweepName(name))) lastPass.set(sweepName(name), startedAt);
    },
    completed(name: string) {
      lastPass.set(sweepName(name), Date.now());
    },
  };
}

/** "appointments no-show sweep" → "appointments-no-show-sweep". */
export const sweepName = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
