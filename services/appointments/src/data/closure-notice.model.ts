import { Schema, type Connection } from 'mongoose';
import { outboxPlugin, withOutbox } from '@crm/event-bus';
import type { EventEnvelope } from '@crm/contracts';
import { isDuplicateKey } from '@crm/server-kit';
import type { ClosureNotices } from '../domain/closure-notices';

/**
 * That a patient was told their appointment's day closed (`_id` = appointment and closure), with the
 * e-mail's event in its outbox. Insert-only, so a notice is sent once however often the profile is
 * saved, and two replicas handling the same change send it once.
 */
const closureNoticeSchema = new Schema(
  {
    _id: { type: String },
    appointmentId: { type: String, required: true },
    notifiedAt: { type: Date, required: true },
  },
  { collection: 'closure_notices', versionKey: false },
);
closureNoticeSchema.plugin(outboxPlugin);

export const closureNoticeModel = (connection: Connection) =>
  connection.model('ClosureNotice', closureNoticeSchema);
export type ClosureNoticeModel = ReturnType<typeof closureNoticeModel>;

export class MongoClosureNotices implements ClosureNotices {
  constructor(
    private readonly ClosureNotice: ClosureNoticeModel,
    private readonly outboxWritten: () => void,
  ) {}

  async record(key: string, appointmentId: string, event: EventEnvelope): Promise<boolean> {
    try {
      await this.ClosureNotice.create(withOutbox({ _id: key, appointmentId, notifiedAt: new Date() }, event));
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    this.outboxWritten();
    return true;
  }
}
