import type { EventEnvelope } from '@crm/contracts';
import type { ViewVersion, ViewVersionRepository } from '../domain/view-config';
import { insertVersion } from './insert-version';
import { viewVersionId, type ViewVersionDocument, type ViewVersionModel } from './view-version.model';

const toVersion = (doc: ViewVersionDocument): ViewVersion => ({
  view: doc.view,
  version: doc.version,
  fields: doc.fields,
  createdAt: doc.createdAt,
  ...(doc.createdBy ? { createdBy: { id: doc.createdBy.id, rol: doc.createdBy.rol } } : {}),
});

export class MongoViewVersionRepository implements ViewVersionRepository {
  constructor(
    private readonly ViewVersion: ViewVersionModel,
    private readonly onEventWritten: () => void = () => undefined,
  ) {}

  async latest(view: string): Promise<ViewVersion | undefined> {
    const doc = await this.ViewVersion.findOne({ view }).sort({ version: -1 }).lean<ViewVersionDocument>();
    return doc ? toVersion(doc) : undefined;
  }

  async byVersion(view: string, version: number): Promise<ViewVersion | undefined> {
    const doc = await this.ViewVersion.findById(viewVersionId(view, version)).lean<ViewVersionDocument>();
    return doc ? toVersion(doc) : undefined;
  }

  insert(version: ViewVersion, event?: EventEnvelope): Promise<boolean> {
    const fields = { _id: viewVersionId(version.view, version.version), ...version };
    return insertVersion(this.ViewVersion, fields, event, this.onEventWritten);
  }
}
