import { DeadLetterBox, type AmqpConnection } from '@crm/event-bus/amqp';
import type { DeployableMetrics } from './registry';

/** How long a queue count is reused: scrapes from two Prometheus replicas cost one look. */
const QUEUE_CHECK_CACHE_MS = 5_000;
const QUEUE_CHECK_TIMEOUT_MS = 2_000;

type QueueCount = { queue: string; messages: number; consumers: number };

/**
 * `crm_queue_messages{queue}` (ready messages of each consumer queue and of its `.retry`),
 * `crm_dead_letter_messages{queue}` (of its `.dlq`; `queue` names the `.dlq`) and
 * `crm_queue_consumers{queue}`: the service's own queues, counted with a passive declare
 * (`checkQueue`) on a channel of its own connection at scrape time. A queue that does not exist
 * yet is left out.
 */
export function queueDepthGauges(
  metrics: DeployableMetrics,
  connection: AmqpConnection,
  queues: () => readonly string[],
): void {
  let cached: { at: number; counts: Promise<QueueCount[]> } | undefined;
  const counts = (): Promise<QueueCount[]> => {
    if (!cached || Date.now() - cached.at > QUEUE_CHECK_CACHE_MS)
      cached = { at: Date.now(), counts: countQueues(connection, queues()).catch(() => []) };
    return cached.counts;
  };
  metrics.gauge(
    'crm_queue_messages',
    'Messages waiting in a consumer queue or its retry queue',
    ['queue'],
    async (gauge) => {
      gauge.reset();
      for (const c of await counts())
        if (!c.queue.endsWith('.dlq')) gauge.set({ queue: c.queue }, c.messages);
    },
  );
  metrics.gauge(
    'crm_dead_letter_messages',
    'Messages in a dead-letter queue (each needs a person: docs/operations.md)',
    ['queue'],
    async (gauge) => {
      gauge.reset();
      for (const c of await counts()) if (c.queue.endsWith('.dlq')) gauge.set({ queue: c.queue }, c.messages);
    },
  );
  metrics.gauge('crm_queue_consumers', 'Consumers attached to a consumer queue', ['queue'], async (gauge) => {
    gauge.reset();
    for (const c of await counts())
      if (!c.queue.endsWith('.dlq') && !c.queue.endsWith('.retry'))
        gauge.set({ queue: c.queue }, c.consumers);
  });
}

async function countQueues(connection: AmqpConnection, names: readonly string[]): Promise<QueueCount[]> {
  // A scrape never waits for a broker that is away: no counts then.
  if (names.length === 0 || !connection.isConnected()) return [];
  const depths = await new DeadLetterBox({ connection, connectTimeoutMs: QUEUE_CHECK_TIMEOUT_MS }).depthsOf(
    names,
  );
  return depths.flatMap(({ queue, messages, consumers }) =>
    messages === null ? [] : [{ queue, messages, consumers: consumers ?? 0 }],
  );
}
