import { Router } from 'express';
import type { Connection } from 'mongoose';
import { INTERNAL_STATUS_PATH, type InternalStatus } from '@crm/contracts';
import { OUTBOX_FIELD, type OutboxSource } from '@crm/event-bus';
import { deployableVersion } from '../version';

/**
 * `GET /internal/status` of every service (mounted by `runtime.httpApp`): what the back office's
 * "Estado del sistema" needs from each deployable that only the deployable knows — its version, the
 * queues it consumes from, and how far behind its outbox is. Probe material like `/readyz`: names,
 * counts and instants, no personal data; the gateway has no route to it (only `/api/v1/…` paths of
 * the route table are proxied), so only the private network reaches it.
 */

/** Pending outbox entries of a service's collections and the instant of the oldest. */
export async function outboxBacklog(
  connection: Connection,
  sources: readonly OutboxSource[],
  scanLimit = 1000,
): Promise<{ pending: number; oldestAt: string | null }> {
  let pending = 0;
  let oldest: number | undefined;
  for (const source of sources) {
    const collection =
      typeof source === 'function'
        ? connection.db!.collection(
            (source as { collection: { collectionName: string } }).collection.collectionName,
          )
        : (source as import('mongoose').mongo.Collection);
    // `'outbox.0': {$exists: true}`: has at least one entry (FerretDB 1.24 and MongoDB alike).
    const documents = await collection
      .find({ [`${OUTBOX_FIELD}.0`]: { $exists: true } }, { projection: { [OUTBOX_FIELD]: 1 } })
      .limit(scanLimit)
      .toArray();
    for (const document of documents) {
      const entries = Array.isArray(document[OUTBOX_FIELD]) ? (document[OUTBOX_FIELD] as unknown[]) : [];
      pending += entries.length;
      for (const entry of entries) {
        const at = Date.parse(String((entry as { occurredAt?: unknown })?.occurredAt));
        if (Number.isFinite(at) && (oldest === undefined || at < oldest)) oldest = at;
      }
    }
  }
  return { pending, oldestAt: oldest === undefined ? null : new Date(oldest).toISOString() };
}

export interface InternalStatusOptions {
  name: string;
  connection: Connection;
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
      const backlog = await outboxBacklog(options.connection, options.outboxSources());
      const now = Date.now();
      const body: InternalStatus = {
        deployable: options.name,
        version,
        commit,
        queues: [...new Set(options.queues())],
        outbox: {
          pending: backlog.pending,
          oldestAt: backlog.oldestAt,
          lagMs: backlog.oldestAt ? Math.max(0, now - Date.parse(backlog.oldestAt)) : 0,
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
