import { Schema, type Connection } from 'mongoose';

/** Whether a patient can sign in to their area, learnt from the auth events (`canSignIn`). */
export interface PatientAccessReader {
  /** `undefined` when the worker has not heard of the patient (or only from older events). */
  canSignIn(userId: string): Promise<boolean | undefined>;
}

const accessSchema = new Schema(
  { _id: { type: String }, canSignIn: { type: Boolean, required: true } },
  { collection: 'patient_access', versionKey: false },
);

const isDuplicateKey = (error: unknown) => (error as { code?: number }).code === 11000;

/**
 * The worker's small copy of "has a password" per person. A password, once set, is never taken
 * away, so `true` wins over a late `false` whatever order the events arrive in; both writes are
 * upserts that repeat harmlessly (redelivery).
 */
export class PatientAccessStore implements PatientAccessReader {
  private readonly model;

  constructor(connection: Connection) {
    this.model = connection.model('PatientAccess', accessSchema);
  }

  async record(userId: string, canSignIn: boolean): Promise<void> {
    const update = canSignIn ? { $set: { canSignIn: true } } : { $setOnInsert: { canSignIn: false } };
    for (let attempt = 0; ; attempt++) {
      try {
        await this.model.updateOne({ _id: userId }, update, { upsert: true });
        return;
      } catch (error) {
        // Two upserts of a new id at once: one inserts, the other retries as an update.
        if (!isDuplicateKey(error) || attempt > 0) throw error;
      }
    }
  }

  async canSignIn(userId: string): Promise<boolean | undefined> {
    const doc = await this.model.findById(userId).lean<{ canSignIn: boolean }>();
    return doc?.canSignIn;
  }
}
