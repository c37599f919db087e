import {
  CENTRE_PROFILE_SEED,
  centreProfileBody,
  configCentreUpdated,
  type CentreProfile,
  type CentreProfileBody,
  type CentreProfileData,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew, notFound, type AuthenticatedUser } from '@crm/server-kit';
import type { CentreVersion, CentreVersionRepository } from './centre-profile';
import { appendNextVersion } from './versions';

const toProfile = ({ profile, version, createdAt }: CentreVersion): CentreProfile => ({
  ...profile,
  version,
  updatedAt: createdAt.toISOString(),
});

/**
 * The centre profile (brand, address, phone, hours, prices): one current version, older versions
 * kept. Every page, e-mail and `.ics` reads it from here.
 */
export class CentreProfileService {
  constructor(private readonly versions: CentreVersionRepository) {}

  /** The current profile. 404 only before the seed ran (start-up stores version 1). */
  async current(): Promise<CentreProfile> {
    const found = await this.versions.latest();
    if (!found) throw notFound('Centre profile not found');
    return toProfile(found);
  }

  /**
   * Stores `profile` (already checked with `centreProfileBody`) as the next version and announces it
   * with `config.centre.updated.v1` through the outbox (caches of the profile drop their copy).
   */
  replace(profile: CentreProfileData, by: AuthenticatedUser): Promise<CentreProfile> {
    return appendNextVersion(
      async () => (await this.versions.latest())?.version,
      async (version) => {
        const stored: CentreVersion = {
          version,
          profile,
          createdAt: new Date(),
          createdBy: { id: by.id, rol: by.rol },
        };
        const event = createEnvelope(configCentreUpdated, { version }, correlationIdOrNew());
        return (await this.versions.insert(stored, event)) ? toProfile(stored) : undefined;
      },
    );
  }

  /**
   * Stores the seed as version 1 when there is no profile yet; never overwrites one. Safe when
   * several replicas start together (the version's unique id settles it). No event: nothing can
   * have cached a profile that did not exist. The seed is checked with the schema, so a broken
   * seed stops the start-up.
   */
  async seed(seed: CentreProfileBody = CENTRE_PROFILE_SEED): Promise<boolean> {
    const profile = centreProfileBody.parse(seed);
    if (await this.versions.latest()) return false;
    return this.versions.insert({ version: 1, profile, createdAt: new Date() });
  }
}
