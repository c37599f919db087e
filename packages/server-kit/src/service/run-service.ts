import { createLogger, type Logger } from '../logger';
import { handleShutdown } from '../shutdown';
import type { ServiceHandle } from './types';

export interface ListenConfig {
  PORT: number;
  /** Interface to listen on; services default to 127.0.0.1 outside containers (see serviceEnvSchema). */
  HOST?: string;
  LOG_LEVEL: Parameters<typeof createLogger>[1];
}

/**
 * A deployable's `main.ts` in one call: read and validate the environment (a bad one stops the process
 * with the message), create the service, listen, start its background work, and shut down gracefully
 * on SIGTERM/SIGINT.
 */
export function runService<C extends ListenConfig>(
  name: string,
  loadConfig: () => C,
  create: (config: C, logger: Logger) => ServiceHandle,
): void {
  let config: C;
  try {
    config = loadConfig();
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  }
  const logger = createLogger(name, config.LOG_LEVEL);
  const service = create(config, logger);
  const host = config.HOST ?? '0.0.0.0';
  const server = service.app.listen(config.PORT, host, () =>
    logger.info({ port: config.PORT, host }, 'listening'),
  );
  handleShutdown(server, [() => service.stop()], logger);
  service.start().catch((error: unknown) => {
    logger.fatal({ err: error instanceof Error ? error.message : String(error) }, 'start-up failed');
    process.exit(1);
  });
}
