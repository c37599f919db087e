import { createLogger, handleShutdown } from '@crm/server-kit';
import { createRoomsService } from './app';
import { loadRoomsConfig } from './config';

async function main() {
  const config = loadRoomsConfig();
  const logger = createLogger('rooms', config.LOG_LEVEL);
  const service = createRoomsService(config, logger);
  const server = service.app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'listening'));
  handleShutdown(server, [service.stop], logger);
  await service.start();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
