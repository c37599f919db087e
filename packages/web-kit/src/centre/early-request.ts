import type { CentreProfile } from '@crm/contracts';

/**
 * A profile request started before the app (the shell's index.html does on "/dates", where the page's
 * first screen needs it): `getCentreProfile` takes it instead of asking again. No imports but types:
 * the shell's inline route flag bundles this file.
 */
export const CENTRE_PROFILE_URL = '/api/v1/config/centre';

export interface EarlyRequestWindow {
  /** Resolves to undefined when the request failed (the app then asks again, and reports errors). */
  crmCentreProfile?: Promise<CentreProfile | undefined>;
}

/** The early request, once: a later call (e.g. after an ADMIN's change) asks the server. */
export function takeEarlyRequest(): Promise<CentreProfile | undefined> | undefined {
  const early = window as EarlyRequestWindow;
  const request = early.crmCentreProfile;
  delete early.crmCentreProfile;
  return request;
}
