import amqp from 'amqplib';
import type { ServiceHandle } from '@crm/server-kit/service';
import type { Logger } from '@crm/server-kit';
import { listen } from '@crm/testing';
import type { ComponentStarter } from './types';

interface StartableService extends ServiceHandle {
  /** Resolves once every consumer queue is bound (events published before that would be lost). */
  consuming?: (timeoutMs?: number) => Promise<void>;
}

/**
 * A deployable started in-process exactly as its `main.ts` starts it (`runService`): its own
 * configuration loaded from the stack's environment with a database of the stack's, its HTTP app
 * listening (workers that only answer probes need none), then `start()`, and the stack waits until
 * its consumers are bound so events published right after start-up are not lost.
 */
export function serviceComponent<C extends { MONGO_DB: string }>(
  name: string,
  loadConfig: (env: NodeJS.ProcessEnv) => C,
  create: (config: C, logger: Logger) => StartableService,
  options: { http?: boolean; afterStop?: (config: C) => Promise<void> } = {},
): ComponentStarter {
  return async ({ env, id, logger }) => {
    const database = `${id}_${name}`;
    const config = loadConfig({ ...env, MONGO_DB: database });
    const service = create(config, logger(name));
    const server = options.http === false ? undefined : await listen(service.app);
    await service.start();
    await service.consuming?.();
    return {
      url: server?.url,
      databases: [database],
      handle: service,
      async stop() {
        await server?.close();
        await service.stop();
        await options.afterStop?.(config);
      },
    };
  };
}

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
