import { listen } from '@crm/testing';
import { createAuthService } from '../../services/auth/src/app';
import { loadAuthConfig } from '../../services/auth/src/config';
import type { ComponentStarter } from './types';

export const startAuth: ComponentStarter = async ({ env, id, logger }) => {
  const database = `${id}_auth`;
  const service = createAuthService(loadAuthConfig({ ...env, MONGO_DB: database }), logger('auth'));
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
