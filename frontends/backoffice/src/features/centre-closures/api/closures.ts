import { mutate } from 'swr';
import type { CentreClosures, CentreProfile } from '@crm/contracts';
import { api, CENTRE_PROFILE_PATH } from '@crm/web-kit';

/**
 * PUT /config/centre/closures (ADMIN): stores the closures as a new version of the centre profile,
 * then puts the answer in the profile's cache, so the calendars of this page close those days at once.
 */
export async function saveClosures(closures: CentreClosures): Promise<CentreProfile> {
  const profile = await api.put<CentreProfile>('/config/centre/closures', closures);
  await mutate(CENTRE_PROFILE_PATH, profile, { revalidate: false });
  return profile;
}
