import { createLogger, handleShutdown } from '@crm/server-kit';
import { createAppointmentsService } from './app';
import { loadAppointmentsConfig } from './config';

async function main() {
  const config = loadAppointmentsConfig();
  const logger = createLogger('appointments', config.LOG_LEVEL);
  const service = createAppointmentsService(config, logger);
  const server = service.app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'listening'));
  handleShutdown(server, [service.stop], logger);
  await service.start();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
