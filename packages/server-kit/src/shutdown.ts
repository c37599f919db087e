import type { Server } from 'node:http';
import type { Logger } from './logger';
import { flushTracing } from './tracing/start';

/**
 * On SIGTERM/SIGINT: stop accepting connections, let in-flight requests finish (bounded), then close
 * the dependencies in order. A second signal exits at once.
 */
export function handleShutdown(
  server: Server,
  closers: Array<() => Promise<unknown> | unknown>,
  logger: Logger,
  graceMs = 10000,
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), graceMs);
    force.unref();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    });
    for (const close of closers) {
      try {
        await close();
      } catch (error) {
        logger.warn({ err: (error as Error).message }, 'error while closing a dependency');
      }
    }
    await flushTracing();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
