import { centreClosuresBody, NO_CLOSURES, type CentreClosures } from '@crm/contracts';
import { CentreProfileValue, type Logger } from '@crm/server-kit';
import type { CentreCalendar } from '../domain/centre-calendar';

/**
 * The closures of the centre profile, cached and dropped on `config.centre.updated.v1`. When the
 * config service cannot answer, the last closures read are kept (else none: the public holidays are
 * computed and apply anyway), so bookings are never held up by it.
 */
export class CentreClosuresClient implements CentreCalendar {
  private readonly source: CentreProfileValue<CentreClosures>;

  constructor(baseUrl: string, options: { timeoutMs: number; cacheMs: number; logger?: Logger }) {
    this.source = new CentreProfileValue({
      ...options,
      baseUrl,
      retryAfterMs: 5_000,
      fallback: NO_CLOSURES,
      what: 'centre closures',
      read: (body) => centreClosuresBody.parse(body.closures ?? {}),
    });
  }

  closures(): Promise<CentreClosures> {
    return this.source.get();
  }

  invalidate(): void {
    this.source.invalidate();
  }
}
