/**
 * The smallest logging surface the bus needs. It matches pino's `(obj, msg)` call shape so a
 * service passes its own logger, and the bus never decides where logs go.
 *
 * Rule for everything in this package: log event id, name, queue and error summaries — never a
 * message body, because event data can carry personal data (names, e-mails, clinical notes).
 */
export interface Logger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

const noop = (): void => undefined;

/** Default when no logger is given (mostly tests), so callers never need null checks. */
export const silentLogger: Logger = { info: noop, warn: noop, error: noop, debug: noop };

/** Error summary safe to log: name, code and a bounded message, never the stack or a payload. */
export function errorSummary(err: unknown): { name: string; message: string; code?: string | number } {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return {
      name: err.name,
      message: truncate(err.message, 300),
      ...(typeof code === 'string' || typeof code === 'number' ? { code } : {}),
    };
  }
  return { name: 'NonError', message: truncate(String(err), 300) };
}

export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
