import './tracing';
import { ConfigError, createLogger, handleShutdown } from '@crm/server-kit';
import { loadGatewayConfig, type GatewayConfig } from './config';
import { startGateway } from './start-gateway';

function loadOrExit(): GatewayConfig {
  try {
    return loadGatewayConfig();
  } catch (error) {
    // Fail fast with every problem listed: a bad setting must stop start-up, never turn auth off.
    console.error(error instanceof ConfigError ? error.message : error);
    process.exit(1);
  }
}

async function main() {
  const config = loadOrExit();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const running = await startGateway(config, { logger });
  // Readiness turns 503 at the first signal; handleShutdown then drains and closes.
  for (const signal of ['SIGTERM', 'SIGINT'] as const)
    process.once(signal, () => running.gateway.startDraining());
  handleShutdown(running.server, [() => running.close()], logger);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
