import { createLogger, handleShutdown } from '@crm/server-kit';
import { createConfigService } from './app';
import { loadConfigServiceConfig } from './config';

async function main() {
  const config = loadConfigServiceConfig();
  const logger = createLogger('config', config.LOG_LEVEL);
  const service = createConfigService(config, logger);
  const server = service.app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'listening'));
  handleShutdown(server, [service.stop], logger);
  await service.start();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
