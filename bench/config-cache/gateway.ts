/**
 * The gateway of the config-cache benchmark, run as its own process: the real gateway as production
 * starts it (startGateway), or without the config cache when VIEW_CONFIG_CACHE=off (every call
 * proxied to the config service).
 */
import { createLogger } from '@crm/server-kit';
import { loadGatewayConfig } from '../../gateway/src/config';
import { startGateway } from '../../gateway/src/start-gateway';

const config = loadGatewayConfig();
startGateway(config, {
  logger: createLogger('bench-gateway', config.LOG_LEVEL),
  configCache: process.env.VIEW_CONFIG_CACHE !== 'off',
}).then(
  () => process.send?.('ready'),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
process.on('SIGTERM', () => process.exit(0));
