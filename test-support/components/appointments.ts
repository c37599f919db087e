import { listen } from '@crm/testing';
import { createAppointmentsService } from '../../services/appointments/src/app';
import { loadAppointmentsConfig } from '../../services/appointments/src/config';
import type { ComponentStarter } from './types';

/** Needs `AUTH_SERVICE_URL` in `env`: the stack sets it once auth (always started first) is up. */
export const startAppointments: ComponentStarter = async ({ env, id, logger }) => {
  const database = `${id}_appointments`;
  const service = createAppointmentsService(
    loadAppointmentsConfig({ ...env, MONGO_DB: database }),
    logger('appointments'),
  );
  const server = await listen(service.app);
  await service.start();
  // Patients registered right after start-up must reach the read model, not an unbound exchange.
  await service.consuming();
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
