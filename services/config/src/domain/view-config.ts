import type { EventEnvelope, ViewField } from '@crm/contracts';

/** One stored version of a view's form configuration. Versions are never changed or deleted. */
export interface ViewVersion {
  view: string;
  version: number;
  fields: ViewField[];
  createdAt: Date;
  /** Who stored it; absent for the seeded version. */
  createdBy?: { id: string; rol: string };
}

export interface ViewVersionRepository {
  latest(view: string): Promise<ViewVersion | undefined>;
  byVersion(view: string, version: number): Promise<ViewVersion | undefined>;
  /**
   * Stores a version, with its event (if any) in the same single-document write. Resolves false
   * when that version of the view already exists: another writer got there first.
   */
  insert(version: ViewVersion, event?: EventEnvelope): Promise<boolean>;
}
