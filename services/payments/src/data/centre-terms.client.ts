import { CENTRE_PAYMENTS_DEFAULTS, CENTRE_PROFILE_SEED, centrePaymentsSchema } from '@crm/contracts';
import type { Logger } from '@crm/server-kit';
import type { CentreTerms, CentreTermsSource } from '../domain/centre-terms';
import { toCents } from '../domain/payment';

interface ProfileAnswer {
  brandName?: string;
  address?: string;
  legalName?: string;
  taxId?: string;
  prices?: { checkUp?: number; currency?: string; refundWindowHours?: number };
  payments?: unknown;
}

/**
 * The centre profile as payments need it, from `GET /config/centre` (public), cached for
 * `cacheMs` and dropped on `config.centre.updated.v1`. When the config service cannot answer, the
 * last profile read is used; before any was read, the call fails (no money is asked on a guess).
 */
export class CentreTermsClient implements CentreTermsSource {
  private cached: { terms: CentreTerms; until: number } | undefined;
  private pending: Promise<CentreTerms> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly options: { timeoutMs: number; cacheMs: number; logger?: Logger },
  ) {}

  current(): Promise<CentreTerms> {
    if (this.cached && this.cached.until > Date.now()) return Promise.resolve(this.cached.terms);
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  invalidate() {
    if (this.cached) this.cached.until = 0;
  }

  private async fetch(): Promise<CentreTerms> {
    try {
      const response = await fetch(new URL('/config/centre', this.baseUrl), {
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`config service answered ${response.status}`);
      const terms = termsOf((await response.json()) as ProfileAnswer);
      this.cached = { terms, until: Date.now() + this.options.cacheMs };
      return terms;
    } catch (error) {
      this.options.logger?.warn(
        { err: (error as Error).message },
        'centre profile not read from the config service',
      );
      if (this.cached) return this.cached.terms;
      throw error;
    }
  }
}

export function termsOf(profile: ProfileAnswer): CentreTerms {
  const payments = centrePaymentsSchema.safeParse(profile.payments ?? {});
  const settings = payments.success ? payments.data : CENTRE_PAYMENTS_DEFAULTS;
  const prices = profile.prices ?? {};
  return {
    priceCents: toCents(prices.checkUp ?? CENTRE_PROFILE_SEED.prices.checkUp),
    currency: prices.currency ?? 'EUR',
    online: settings.online,
    refundWindowHours: prices.refundWindowHours ?? 24,
    issuer: {
      legalName: profile.legalName ?? '',
      taxId: profile.taxId ?? '',
      address: profile.address ?? '',
      brandName: profile.brandName ?? '',
    },
    vatRatePercent: settings.vatRatePercent,
    exemptionText: settings.exemptionText,
  };
}
