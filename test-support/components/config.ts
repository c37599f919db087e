import { listen } from '@crm/testing';
import { createConfigService } from '../../services/config/src/app';
import { loadConfigServiceConfig } from '../../services/config/src/config';
import type { ComponentStarter } from './types';

export const startConfig: ComponentStarter = async ({ env, id, logger }) => {
  const database = `${id}_config`;
  const service = createConfigService(
    loadConfigServiceConfig({ ...env, MONGO_DB: database }),
    logger('config'),
  );
  const server = await listen(service.app);
  await service.start();
  return {
    url: server.url,
    databases: [database],
    handle: service,
    async stop() {
      await server.close();
      await service.stop();
    },
  };
};
