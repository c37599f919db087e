import { CentreProfileValue } from './centre-profile-value';
import type { Logger } from './logger';

/** The seeded centre profile's refund window: refunded when cancelled more than 24 hours before. */
export const DEFAULT_REFUND_WINDOW_HOURS = 24;

/**
 * The refund window of the centre profile (reporting, appointments), cached and dropped on
 * `config.centre.updated.v1`; the last value read, else 24 h, when the config service cannot answer.
 */
export class CentreRefundWindow {
  private readonly source: CentreProfileValue<number>;

  constructor(baseUrl: string, options: { timeoutMs: number; cacheMs: number; logger?: Logger }) {
    this.source = new CentreProfileValue({
      ...options,
      baseUrl,
      retryAfterMs: 60_000,
      fallback: DEFAULT_REFUND_WINDOW_HOURS,
      what: 'refund window',
      read: (body) => {
        const hours = (body.prices as { refundWindowHours?: unknown } | undefined)?.refundWindowHours;
        if (typeof hours !== 'number' || !Number.isFinite(hours) || hours < 0)
          throw new Error('centre profile without a refund window');
        return hours;
      },
    });
  }

  hours(): Promise<number> {
    return this.source.get();
  }

  invalidate(): void {
    this.source.invalidate();
  }
}
