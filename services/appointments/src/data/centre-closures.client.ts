import { centreClosuresBody, NO_CLOSURES, type CentreClosures } from '@crm/contracts';
import type { Logger } from '@crm/server-kit';
import type { CentreCalendar } from '../domain/centre-calendar';

/**
 * The closures of the centre profile (`GET /config/centre` on the config service, public), cached for
 * `cacheMs` and dropped on `config.centre.updated.v1`. When the config service cannot answer, the last
 * closures read are kept (else none: the public holidays are computed and apply anyway), so bookings
 * are never held up by it.
 */
export class CentreClosuresClient implements CentreCalendar {
  private value: { closures: CentreClosures; until: number } | undefined;
  private pending: Promise<CentreClosures> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly options: { timeoutMs: number; cacheMs: number; logger?: Logger },
  ) {}

  async closures(): Promise<CentreClosures> {
    if (this.value && this.value.until > Date.now()) return this.value.closures;
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** `config.centre.updated.v1`: read them again next time. */
  invalidate() {
    if (this.value) this.value.until = 0;
  }

  private async fetch(): Promise<CentreClosures> {
    try {
      const response = await fetch(new URL('/config/centre', this.baseUrl), {
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`config service answered ${response.status}`);
      const body = (await response.json()) as { closures?: unknown };
      const closures = centreClosuresBody.parse(body.closures ?? {});
      this.value = { closures, until: Date.now() + this.options.cacheMs };
      return closures;
    } catch (error) {
      const fallback = this.value?.closures ?? NO_CLOSURES;
      this.options.logger?.warn(
        { err: (error as Error).message },
        'centre closures not read from the config service; using the last known (or none)',
      );
      // Try again in a few seconds rather than on every booking.
      this.value = { closures: fallback, until: Date.now() + 5_000 };
      return fallback;
    }
  }
}
