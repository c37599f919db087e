import { configCentreUpdated } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { CentreProfileClient } from '../data/centre-profile.client';

/** Drops the worker's copy of the centre profile as soon as the config service announces a newer one. */
export function centreProfileHandlers(profile: CentreProfileClient) {
  return [on(configCentreUpdated, (event) => profile.invalidate(event.data.version))] as const;
}
