import { Schema, Types, type Connection, type Model } from 'mongoose';
import type { CodeTries } from '../domain/kiosk-proof';

interface CodeTryDocument {
  _id: Types.ObjectId;
  /** The patient's id, stored under the API's name: another name would mean migrating every document. */
  pacientId: string;
  at: Date;
}

const codeTrySchema = new Schema<CodeTryDocument>(
  { pacientId: { type: String, required: true }, at: { type: Date, required: true } },
  { collection: 'kiosk_code_tries', versionKey: false },
);
codeTrySchema.index({ pacientId: 1, at: 1 });

/**
 * Booking-code tries at the kiosk, one document each (FerretDB has no atomic counter, but inserts
 * and counts are exact): a try is inserted first, then the tries of the window are counted, so of
 * parallel guesses at most `maxTries` get as far as the comparison. A try that matched is deleted;
 * the others expire with the window (deleted on the patient's next try). Counted per patient, so
 * guesses are no faster through `POST /dates/checkin` than through `POST /dates/code/verify`.
 */
export class MongoCodeTries implements CodeTries {
  private readonly model: Model<CodeTryDocument>;

  constructor(
    connection: Connection,
    private readonly policy: { maxTries: number; windowMs: number },
  ) {
    this.model =
      (connection.models.KioskCodeTry as Model<CodeTryDocument> | undefined) ??
      connection.model<CodeTryDocument>('KioskCodeTry', codeTrySchema);
  }

  async reserve(patientId: string, now: Date): Promise<{ id: string; retryAfterSeconds?: number }> {
    const since = new Date(now.getTime() - this.policy.windowMs);
    await this.model.deleteMany({ pacientId: patientId, at: { $lt: since } });
    const _id = new Types.ObjectId();
    await this.model.create({ _id, pacientId: patientId, at: now });
    const tries = await this.model
      .find({ pacientId: patientId, at: { $gte: since } })
      .sort({ at: 1 })
      .select({ at: 1 })
      .lean<Array<{ at: Date }>>();
    if (tries.length <= this.policy.maxTries) return { id: String(_id) };
    // Refused without comparing: not a try, so refusals do not keep the lock alive. Free again once
    // the oldest try of the window has left it.
    await this.model.deleteOne({ _id });
    const freeAt = tries[0]!.at.getTime() + this.policy.windowMs;
    return { id: String(_id), retryAfterSeconds: Math.max(1, Math.ceil((freeAt - now.getTime()) / 1000)) };
  }

  async cancel(id: string): Promise<void> {
    await this.model.deleteOne({ _id: new Types.ObjectId(id) });
  }
}
