import { listen } from '@crm/testing';
import { createRoomsService } from '../../services/rooms/src/app';
import { loadRoomsConfig } from '../../services/rooms/src/config';
import type { ComponentStarter } from './types';

export const startRooms: ComponentStarter = async ({ env, id, logger }) => {
  const database = `${id}_rooms`;
  const service = createRoomsService(loadRoomsConfig({ ...env, MONGO_DB: database }), logger('rooms'));
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
