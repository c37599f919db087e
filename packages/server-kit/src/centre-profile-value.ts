import type { Logger } from './logger';

export interface CentreProfileValueOptions<T> {
  /** Base URL of the config service; the profile is its public `GET /config/centre`. */
  baseUrl: string;
  timeoutMs: number;
  /** How long a value read is used without asking again. */
  cacheMs: number;
  /** After a failed read, how long the fallback is used before asking again. */
  retryAfterMs: number;
  /** Picks the value out of the profile's body; throws when it is missing or malformed. */
  read(body: Record<string, unknown>): T;
  /** Used when nothing has been read yet and the config service cannot answer. */
  fallback: T;
  /** Names the value in the warning logged when it cannot be read (e.g. "refund window"). */
  what: string;
  logger?: Logger;
}

/**
 * One value of the centre profile (`GET /config/centre` on the config service), cached for
 * `cacheMs` and dropped on `config.centre.updated.v1` (`invalidate`). When the config service cannot
 * answer, the last value read is kept (else `fallback`), so the work that needs it is never held up.
 * Concurrent callers share one request.
 */
export class CentreProfileValue<T> {
  private value: { current: T; until: number } | undefined;
  private pending: Promise<T> | undefined;

  constructor(private readonly options: CentreProfileValueOptions<T>) {}

  async get(): Promise<T> {
    if (this.value && this.value.until > Date.now()) return this.value.current;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** `config.centre.updated.v1`: read it again next time. */
  invalidate(): void {
    if (this.value) this.value.until = 0;
  }

  private async fetch(): Promise<T> {
    const { baseUrl, timeoutMs, cacheMs, retryAfterMs, read, fallback, what, logger } = this.options;
    try {
      const response = await fetch(new URL('/config/centre', baseUrl), {
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`config service answered ${response.status}`);
      const current = read((await response.json()) as Record<string, unknown>);
      this.value = { current, until: Date.now() + cacheMs };
      return current;
    } catch (error) {
      const kept = this.value?.current ?? fallback;
      logger?.warn(
        { err: (error as Error).message },
        `${what} not read from the config service; using the last known or default`,
      );
      // Asked again after a while rather than on every event or request.
      this.value = { current: kept, until: Date.now() + retryAfterMs };
      return kept;
    }
  }
}
