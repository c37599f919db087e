import {
  CENTRE_PROFILE_SEED,
  centreProfileBody,
  closuresOf,
  type CentreClosures,
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
  closures: closuresOf(profile),
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
    // A profile saved without closures keeps the current ones: they have their own editor.
    return this.appendVersion(by, (latest) => ({
      ...profile,
      closures: profile.closures ?? closuresOf(latest?.profile ?? {}),
      // Likewise the payment settings, which the profile form does not show.
      ...((profile.payments ?? latest?.profile.payments)
        ? { payments: profile.payments ?? latest?.profile.payments }
        : {}),
    }));
  }

  /**
   * Stores the current profile with new closures as the next version (`PUT /config/centre/closures`),
   * announced like any other version; the appointments service then tells the patients of the days
   * that closed.
   */
  replaceClosures(closures: CentreClosures, by: AuthenticatedUser): Promise<CentreProfile> {
    return this.appendVersion(by, (latest) => {
      if (!latest) throw notFound('Centre profile not found');
      return { ...latest.profile, closures };
    });
  }

  private appendVersion(
    by: AuthenticatedUser,
    next: (latest: CentreVersion | undefined) => CentreProfileData,
  ): Promise<CentreProfile> {
    let latest: CentreVersion | undefined;
    return appendNextVersion(
      async () => {
        latest = await this.versions.latest();
        return latest?.version;
      },
      async (version) => {
        const stored: CentreVersion = {
          version,
          profile: next(latest),
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
