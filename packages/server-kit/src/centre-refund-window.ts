import type { Logger } from './logger';

/** The seeded centre profile's refund window: refunded when cancelled more than 24 hours before. */
export const DEFAULT_REFUND_WINDOW_HOURS = 24;

/**
 * The refund window of the centre profile, `GET /config/centre` on the config service (public),
 * cached for `cacheMs` and dropped on `config.centre.updated.v1` (reporting, appointments). When the config service cannot
 * answer, the last value read is kept, else the default (24 h), so events are never held up by it.
 */
export class CentreRefundWindow {
  private value: { hours: number; until: number } | undefined;
  private pending: Promise<number> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly options: { timeoutMs: number; cacheMs: number; logger?: Logger },
  ) {}

  async hours(): Promise<number> {
    if (this.value && this.value.until > Date.now()) return this.value.hours;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** `config.centre.updated.v1`: read it again next time. */
  invalidate() {
    if (this.value) this.value.until = 0;
  }

  private async fetch(): Promise<number> {
    try {
      const response = await fetch(new URL('/config/centre', this.baseUrl), {
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`config service answered ${response.status}`);
      const body = (await response.json()) as { prices?: { refundWindowHours?: unknown } };
      const hours = body.prices?.refundWindowHours;
      if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0)
        throw new Error('centre profile without a refund window');
      this.value = { hours, until: Date.now() + this.options.cacheMs };
      return hours;
    } catch (error) {
      const fallback = this.value?.hours ?? DEFAULT_REFUND_WINDOW_HOURS;
      this.options.logger?.warn(
        { err: (error as Error).message, hours: fallback },
        'refund window not read from the config service; using the last known or default',
      );
      // Try again in a minute rather than on every event.
      this.value = { hours: fallback, until: Date.now() + 60_000 };
      return fallback;
    }
  }
}
