import { createNotificationsService } from '../../services/notifications/src/app';
import { loadNotificationsConfig } from '../../services/notifications/src/config';
import type { ComponentStarter } from './types';

export const startNotifications: ComponentStarter = async ({ env, id, logger }) => {
  const database = `${id}_notifications`;
  const service = createNotificationsService(
    loadNotificationsConfig({ ...env, MONGO_DB: database }),
    logger('notifications'),
  );
  await service.start();
  await service.ready();
  return { databases: [database], handle: service, stop: () => service.stop() };
};
