import { CENTRE_PROFILE_SEED } from '@crm/contracts';
import { CentreProfileValue, type Logger } from '@crm/server-kit';
import type { CheckUpPriceSource } from '../domain/reporting.service';

const toCents = (euros: number) => Math.round(euros * 100);

/**
 * The centre profile's check-up price in cents (`prices.checkUp`, taxes included), cached like the
 * refund window and dropped on `config.centre.updated.v1`; the last price read, else the seed's, when
 * the config service cannot answer.
 */
export class CentreCheckUpPrice implements CheckUpPriceSource {
  private readonly source: CentreProfileValue<number>;

  constructor(baseUrl: string, options: { timeoutMs: number; cacheMs: number; logger?: Logger }) {
    this.source = new CentreProfileValue({
      ...options,
      baseUrl,
      retryAfterMs: 60_000,
      fallback: toCents(CENTRE_PROFILE_SEED.prices.checkUp),
      what: 'check-up price',
      read: (body) => {
        const euros = (body.prices as { checkUp?: unknown } | undefined)?.checkUp;
        if (typeof euros !== 'number' || !Number.isFinite(euros) || euros < 0)
          throw new Error('centre profile without a check-up price');
        return toCents(euros);
      },
    });
  }

  cents(): Promise<number> {
    return this.source.get();
  }

  invalidate(): void {
    this.source.invalidate();
  }
}
