import pino, { type Logger } from 'pino';
import { prettyDestination } from './log-format';
import { currentCorrelationId } from './request-context';

export type { Logger };

/**
 * Paths that may carry secrets or personal clinical text. Pino replaces them before serialising,
 * so a careless `logger.info({ body })` cannot leak a password or a token.
 */
export const REDACTED_PATHS = [
  'password',
  '*.password',
  '*.*.password',
  'token',
  '*.token',
  '*.*.token',
  'sessiontoken',
  '*.sessiontoken',
  'authorization',
  '*.authorization',
  'headers.authorization',
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'metadata',
  '*.metadata',
  'JWT_SECRET',
  '*.JWT_SECRET',
  'JWT_SIGNING_KEY',
  '*.JWT_SIGNING_KEY',
];

export function createLogger(
  name: string,
  level: string = process.env.LOG_LEVEL ?? 'info',
  destination?: pino.DestinationStream,
): Logger {
  return pino(
    {
      name,
      level,
      base: { service: name },
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      mixin() {
        const correlationId = currentCorrelationId();
        return correlationId ? { correlationId } : {};
      },
    },
    destination ?? prettyDestination(),
  );
}
