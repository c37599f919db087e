import { createLogger, handleShutdown } from '@crm/server-kit';
import { createAuthService } from './app';
import { loadAuthConfig } from './config';

async function main() {
  const config = loadAuthConfig();
  const logger = createLogger('auth', config.LOG_LEVEL);
  const service = createAuthService(config, logger);
  const server = service.app.listen(config.PORT, () => logger.info({ port: config.PORT }, 'listening'));
  handleShutdown(server, [service.stop], logger);
  await service.start();
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
