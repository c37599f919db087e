import { configCentreUpdated, type EventEnvelope } from '@crm/contracts';
import { AmqpConnection, EventConsumer, InMemoryProcessedEventStore, on } from '@crm/event-bus';
import type { Stack } from './stack';

/**
 * A consumer of `config.centre.updated.v1` on `<prefix>.appointments.system-check`, connected as the
 * appointments broker user: a queue of a real deployable's name, so "Estado del sistema" knows it,
 * but not one the deployable itself reads. `handle` throws to make its messages fail, and after
 * `maxAttempts` they are dead-lettered.
 */
export async function systemCheckConsumer(
  stack: Pick<Stack, 'busUrl' | 'exchange' | 'env'>,
  handle: (event: EventEnvelope) => Promise<void> | void,
  retries: { maxAttempts: number; retryDelayMs?: number[] },
): Promise<{ queue: string; close(): Promise<void> }> {
  const queue = `${stack.env.QUEUE_PREFIX}.appointments.system-check`;
  const connection = new AmqpConnection({ url: stack.busUrl('appointments') }).start();
  const consumer = new EventConsumer({ connection, exchange: stack.exchange });
  await consumer
    .subscribe({
      queue,
      events: [on(configCentreUpdated, handle)],
      idempotency: new InMemoryProcessedEventStore(),
      ...retries,
    })
    .ready();
  return {
    queue,
    async close() {
      await consumer.close();
      await connection.close();
    },
  };
}
