import type { EventEnvelope } from '@crm/contracts';
import { withOutbox } from '@crm/event-bus';
import type { ViewVersion, ViewVersionRepository } from '../domain/view-config';
import { viewVersionId, type ViewVersionDocument, type ViewVersionModel } from './view-version.model';

const toVersion = (doc: ViewVersionDocument): ViewVersion => ({
  view: doc.view,
  version: doc.version,
  fields: doc.fields,
  createdAt: doc.createdAt,
  ...(doc.createdBy ? { createdBy: { id: doc.createdBy.id, rol: doc.createdBy.rol } } : {}),
});

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

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

  async insert(version: ViewVersion, event?: EventEnvelope): Promise<boolean> {
    const fields = { _id: viewVersionId(version.view, version.version), ...version };
    try {
      // The configuration and its event in one single-document write (outbox, see @crm/event-bus).
      await this.ViewVersion.create(event ? withOutbox(fields, event) : fields);
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    if (event) this.onEventWritten();
    return true;
  }
}
