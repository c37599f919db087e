import { mutate } from 'swr';
import type { CentreProfile, CentreProfileBody } from '@crm/contracts';
import { api, CENTRE_PROFILE_PATH } from '@crm/web-kit';

/** The profile as stored now, read past any copy of this page (the editor starts from the truth). */
export const loadCentreProfile = () => api.get<CentreProfile>(CENTRE_PROFILE_PATH, { auth: false });

/**
 * PUT /config/centre (ADMIN): the whole profile, a new version. The answer replaces the page's copy,
 * so the header and footer of this page show the change at once.
 */
export async function saveCentreProfile(body: CentreProfileBody): Promise<CentreProfile> {
  const saved = await api.put<CentreProfile>(CENTRE_PROFILE_PATH, body);
  await mutate(CENTRE_PROFILE_PATH, saved, { revalidate: false });
  return saved;
}
