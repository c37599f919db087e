import { ERASED_PATIENT_NAME, erasedEmail } from '@crm/contracts';
import { patientKeys } from './appointment.documents';
import type { AppointmentModels } from './appointment.model';

/**
 * Pseudonymises what this service keeps of a patient who erased their account: the
 * snapshot on every appointment document and the read model's copy keep the id, lose the name,
 * e-mail address and phone. Appointments themselves stay: the centre's history and billing.
 */
export class PatientErasure {
  constructor(private readonly models: AppointmentModels) {}

  async pseudonymise(patientId: string): Promise<void> {
    const email = erasedEmail(patientId);
    await this.models.Appointment.updateMany(
      { pacientId: patientId },
      {
        $set: {
          'user.name': ERASED_PATIENT_NAME,
          'user.email': email,
          ...patientKeys({ name: ERASED_PATIENT_NAME, email }),
        },
        $unset: { 'user.phone': '' },
      },
    );
    await this.models.Patient.updateOne(
      { _id: patientId },
      { $set: { name: ERASED_PATIENT_NAME, email, asOf: new Date() }, $unset: { phone: '' } },
    );
  }
}
