import { configViewUpdated, type ViewConfigView, type ViewField } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew, notFound, type AuthenticatedUser } from '@crm/server-kit';
import { viewFieldsSchema } from '@crm/view-config';
import type { ViewVersion, ViewVersionRepository } from './view-config';
import { appendNextVersion } from './versions';

const toView = ({ view, version, fields }: ViewVersion): ViewConfigView => ({ view, version, fields });

export class ViewConfigService {
  constructor(private readonly versions: ViewVersionRepository) {}

  /** The current configuration of a view, or the given older version. 404 when there is none. */
  async get(view: string, version?: number): Promise<ViewConfigView> {
    const found =
      version === undefined ? await this.versions.latest(view) : await this.versions.byVersion(view, version);
    if (!found) throw notFound(version === undefined ? 'View not found' : 'View version not found');
    return toView(found);
  }

  /**
   * Stores `fields` (already checked with `viewFieldsSchema`) as the next version of the view and
   * announces it with `config.view.updated.v1` through the outbox. Older versions stay readable.
   */
  async replace(
    view: string,
    fields: ViewField[],
    by: AuthenticatedUser,
  ): Promise<{ config: ViewConfigView; created: boolean }> {
    return appendNextVersion(
      async () => (await this.versions.latest(view))?.version,
      async (version) => {
        const stored: ViewVersion = {
          view,
          version,
          fields,
          createdAt: new Date(),
          createdBy: { id: by.id, rol: by.rol },
        };
        const event = createEnvelope(configViewUpdated, { view, version }, correlationIdOrNew());
        return (await this.versions.insert(stored, event))
          ? { config: toView(stored), created: version === 1 }
          : undefined;
      },
    );
  }

  /**
   * Stores `fields` as version 1 when the view has no configuration yet; never overwrites one. Safe
   * when several replicas start together (the version's unique id settles it). No event: nothing
   * can have cached a view that did not exist.
   */
  async seed(view: string, fields: unknown): Promise<boolean> {
    const parsed = viewFieldsSchema.parse(fields);
    if (await this.versions.latest(view)) return false;
    return this.versions.insert({ view, version: 1, fields: parsed, createdAt: new Date() });
  }
}
