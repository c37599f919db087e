import amqp from 'amqplib';
import { listen } from '@crm/testing';
import { createRecordsService, RECORDS_QUEUE_PURPOSES } from '../../services/records/src/app';
import { loadRecordsConfig } from '../../services/records/src/config';
import type { ComponentStarter } from './types';

/** Deletes a consumer queue with its retry and dead-letter queues (test clean-up; best effort). */
export async function deleteConsumerQueues(amqpUrl: string, queue: string): Promise<void> {
  const connection = await amqp.connect(amqpUrl).catch(() => undefined);
  if (!connection) return;
  try {
    const channel = await connection.createChannel();
    for (const name of [queue, `${queue}.retry`, `${queue}.dlq`])
      await channel.deleteQueue(name).catch(() => undefined);
  } finally {
    await connection.close().catch(() => undefined);
  }
}

/**
 * Needs `AUTH_SERVICE_URL`, `APPOINTMENTS_SERVICE_URL` and `CONFIG_SERVICE_URL` in `env`: list
 * `auth`, `appointments` and `config` before `records` in the stack's components.
 */
export const startRecords: ComponentStarter = async ({ env, id, logger }) => {
  const database = `${id}_records`;
  const config = loadRecordsConfig({ ...env, MONGO_DB: database });
  const service = createRecordsService(config, logger('records'));
  const server = await listen(service.app);
  await service.start();
  // Configuration changes made right after start-up must reach the configuration cache.
  await service.consuming();
  return {
    url: server.url,
    databases: [database],
    handle: service,
    async stop() {
      await server.close();
      await service.stop();
      for (const purpose of RECORDS_QUEUE_PURPOSES)
        await deleteConsumerQueues(config.AMQP_URL, `${config.QUEUE_PREFIX}.records.${purpose}`);
    },
  };
};
