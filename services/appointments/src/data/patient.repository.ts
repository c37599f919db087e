import { isDuplicateKey } from '@crm/server-kit';
import type { Patient, PatientReadModel } from '../domain/patient';
import type { AppointmentModels, PatientDocument } from './appointment.model';

/** The patients read model: `{id, name, email, phone}` per patient, newest version wins. */
export class MongoPatientReadModel implements PatientReadModel {
  constructor(private readonly models: AppointmentModels) {}

  async find(id: string): Promise<Patient | undefined> {
    const doc = await this.models.Patient.findById(id).lean<PatientDocument>();
    if (!doc) return undefined;
    return {
      id: String(doc._id),
      name: doc.name,
      email: doc.email,
      ...(doc.phone ? { phone: doc.phone } : {}),
    };
  }

  async save(patient: Patient, asOf: Date, confirmed?: boolean): Promise<boolean> {
    try {
      // Matches only an older version (or nothing, then inserts); a newer stored version makes the
      // upsert collide on _id, which is the signal to keep what is stored.
      const { name, email, phone } = patient;
      const fields = {
        name,
        email,
        asOf,
        ...(phone ? { phone } : {}),
        ...(confirmed !== undefined ? { confirmed } : {}),
      };
      await this.models.Patient.updateOne(
        { _id: patient.id, asOf: { $lt: asOf } },
        phone ? { $set: fields } : { $set: fields, $unset: { phone: 1 } },
        { upsert: true },
      );
      return true;
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
  }

  async unconfirmedAmong(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const docs = await this.models.Patient.find({ _id: { $in: [...ids] }, confirmed: false })
      .select({ _id: 1 })
      .lean<Array<{ _id: string }>>();
    return new Set(docs.map((doc) => String(doc._id)));
  }
}
