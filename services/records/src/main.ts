import { createLogger, handleShutdown } from '@crm/server-kit';
import { createRecordsService } from './app';
import { loadRecordsConfig } from './config';

async function main() {
  const config = loadRecordsConfig();
  const logger = createLogger('records', config.LOG_LEVEL);
  const service = createRecordsService(config, logger);
  const server = service.app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'listening'));
  handleShutdown(server, [service.stop], logger);
  await service.start();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
