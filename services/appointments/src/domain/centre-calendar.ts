import { NO_CLOSURES, type CentreClosures } from '@crm/contracts';

/** Where the domain reads the centre profile's closures (the config service, cached). */
export interface CentreCalendar {
  closures(): Promise<CentreClosures>;
}

/** Only the computed public holidays: for services built without the config service (tests). */
export const PUBLIC_HOLIDAYS_ONLY: CentreCalendar = { closures: async () => NO_CLOSURES };
