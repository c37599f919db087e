import { Router } from 'express';
import { INTERNAL_STATUS_PATH, type InternalStatus } from '@crm/contracts';
import { outboxBacklog, type OutboxSource } from '@crm/event-bus/outbox';
import { deployableVersion } from '../version';

/**
 * `GET /internal/status` of every service (mounted by `runtime.httpApp`): what the back office's
 * "Estado del sistema" needs from each deployable that only the deployable knows — its version, the
 * queues it consumes from, and how far behind its outbox is. Probe material like `/readyz`: names,
 * counts and instants, no personal data; the gateway has no route to it (only `/api/v1/…` paths of
 * the route table are proxied), so only the private network reaches it.
 */

export interface InternalStatusOptions {
  name: string;
  /** The collections the outbox relay publishes from (read when asked). */
  outboxSources: () => readonly OutboxSource[];
  /** The consumer queues (main queue names, without `.retry`/`.dlq`). */
  queues: () => readonly string[];
}

export function internalStatusRoutes(options: InternalStatusOptions): Router {
  const router = Router();
  const { version, commit } = deployableVersion(`@crm/${options.name}-service`);
  router.get(INTERNAL_STATUS_PATH, async (_req, res, next) => {
    try {
      const backlog = await outboxBacklog(options.outboxSources());
      const now = Date.now();
      const body: InternalStatus = {
        deployable: options.name,
        version,
        commit,
        queues: [...new Set(options.queues())],
        outbox: {
          pending: backlog.pending,
          oldestAt: backlog.oldestAt?.toISOString() ?? null,
          lagMs: backlog.oldestAt ? Math.max(0, now - backlog.oldestAt.getTime()) : 0,
        },
      };
      res.setHeader('Cache-Control', 'no-store');
      res.json(body);
    } catch (error) {
      next(error);
    }
  });
  return router;
}
