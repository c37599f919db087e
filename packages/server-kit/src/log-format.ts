import type { DestinationStream } from 'pino';
import pretty from 'pino-pretty';

/**
 * Where log lines go: JSON lines on stdout (containers, CI, tests, anything that reads them), or
 * coloured, readable lines when `LOG_FORMAT=pretty` — which `npm start` sets for the deployables
 * when its own stdout is a terminal (scripts/start-all.ts). Redaction happens before either.
 */
export function prettyDestination(
  format = process.env.LOG_FORMAT,
  /** Where the readable lines go (default stdout; tests pass their own). */
  destination?: NodeJS.WritableStream,
): DestinationStream | undefined {
  if (format !== 'pretty') return undefined;
  return pretty({
    ...(destination ? { destination } : {}),
    colorize: true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // npm start prefixes every line with the deployable's name already.
    ignore: 'pid,hostname,service,name',
    singleLine: true,
  });
}
