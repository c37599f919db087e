import type { EventEnvelope } from '@crm/contracts';
import type { CentreVersion, CentreVersionRepository } from '../domain/centre-profile';
import type { CentreVersionDocument, CentreVersionModel } from './centre-version.model';
import { insertVersion } from './insert-version';

const toVersion = (doc: CentreVersionDocument): CentreVersion => ({
  version: doc._id,
  profile: doc.profile,
  createdAt: doc.createdAt,
  ...(doc.createdBy ? { createdBy: { id: doc.createdBy.id, rol: doc.createdBy.rol } } : {}),
});

export class MongoCentreVersionRepository implements CentreVersionRepository {
  constructor(
    private readonly CentreVersion: CentreVersionModel,
    private readonly onEventWritten: () => void = () => undefined,
  ) {}

  async latest(): Promise<CentreVersion | undefined> {
    const doc = await this.CentreVersion.findOne().sort({ _id: -1 }).lean<CentreVersionDocument>();
    return doc ? toVersion(doc) : undefined;
  }

  insert({ version, ...rest }: CentreVersion, event?: EventEnvelope): Promise<boolean> {
    return insertVersion(this.CentreVersion, { _id: version, ...rest }, event, this.onEventWritten);
  }
}
