import { CENTRE_PROFILE_SEED, centreClosuresBody, NO_CLOSURES, openingPeriodSchema } from '@crm/contracts';
import { z } from 'zod';
import type { Logger } from '@crm/server-kit';
import type { CentreDays } from '../domain/kiosk-session';

const profileDays = z.object({
  openingHours: z.array(openingPeriodSchema).min(1),
  closures: centreClosuresBody.optional(),
});

/** Before any read, and while nothing could be read: the seeded hours, no closures (holidays are computed). */
const SEEDED: CentreDays = { openingHours: CENTRE_PROFILE_SEED.openingHours, closures: NO_CLOSURES };

/**
 * The centre profile's opening hours and closures (`GET /config/centre` on the config service,
 * public), for the length of kiosk sessions. Kept for `cacheMs`; when the config service cannot
 * answer, the last days read (else the seed's) are used, and it is asked again in a minute: a
 * sign-in is never held up by it.
 */
export class CentreDaysClient {
  private value: { days: CentreDays; until: number } | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly options: { timeoutMs: number; cacheMs: number; logger?: Logger },
  ) {}

  async current(): Promise<CentreDays> {
    if (this.value && this.value.until > Date.now()) return this.value.days;
    try {
      const response = await fetch(new URL('/config/centre', this.baseUrl), {
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      if (!response.ok) throw new Error(`config service answered ${response.status}`);
      const { openingHours, closures } = profileDays.parse(await response.json());
      const days = { openingHours, closures: closures ?? NO_CLOSURES };
      this.value = { days, until: Date.now() + this.options.cacheMs };
      return days;
    } catch (error) {
      const days = this.value?.days ?? SEEDED;
      this.options.logger?.warn(
        { err: (error as Error).message },
        'centre hours not read from the config service; using the last known (or the seed)',
      );
      this.value = { days, until: Date.now() + 60_000 };
      return days;
    }
  }
}
