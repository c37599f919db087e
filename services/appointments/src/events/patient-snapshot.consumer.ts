import { userRegistered, userUpdated } from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { AppointmentRepository } from '../domain/appointment';
import type { PatientReadModel } from '../domain/patient';

interface PersonSnapshot {
  id: string;
  name: string;
  email: string;
  phone?: string;
  rol: string;
  confirmed?: boolean;
}

/**
 * Keeps the patients read model in step with the auth service. Staff accounts are not patients and
 * are skipped. A version older than the stored one (events can arrive late or out of order, and a
 * request may have fetched a fresher copy) is ignored; a newer one also refreshes the details shown
 * on the patient's active appointment.
 */
export function patientSnapshotHandlers(patients: PatientReadModel, appointments: AppointmentRepository) {
  const apply = async ({ id, name, email, phone, rol, confirmed }: PersonSnapshot, occurredAt: string) => {
    if (rol !== 'PACIENT') return;
    const patient = { id, name, email, ...(phone ? { phone } : {}) };
    if (await patients.save(patient, new Date(occurredAt), confirmed))
      await appointments.refreshPatient(patient);
  };
  return [
    on(userRegistered, (event) => apply(event.data, event.occurredAt)),
    on(userUpdated, (event) => apply(event.data, event.occurredAt)),
  ] as const;
}
