import { createLogger, handleShutdown } from '@crm/server-kit';
import { createNotificationsService } from './app';
import { loadNotificationsConfig } from './config';

async function main() {
  const config = loadNotificationsConfig();
  const logger = createLogger('notifications', config.LOG_LEVEL);
  const service = createNotificationsService(config, logger);
  const server = service.app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'listening'));
  handleShutdown(server, [service.stop], logger);
  await service.start();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
