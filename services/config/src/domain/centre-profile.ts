import type { CentreProfileData, EventEnvelope } from '@crm/contracts';

/** One stored version of the centre profile. Versions are never changed or deleted. */
export interface CentreVersion {
  version: number;
  profile: CentreProfileData;
  createdAt: Date;
  /** Who stored it; absent for the seeded version 1. */
  createdBy?: { id: string; rol: string };
}

export interface CentreVersionRepository {
  latest(): Promise<CentreVersion | undefined>;
  /**
   * Stores a version, with its event (if any) in the same single-document write. Resolves false
   * when that version already exists: another writer got there first.
   */
  insert(version: CentreVersion, event?: EventEnvelope): Promise<boolean>;
}
