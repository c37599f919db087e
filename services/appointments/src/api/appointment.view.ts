import type { AppointmentPatientView, AppointmentView } from '@crm/contracts';
import type { Appointment } from '../domain/appointment';
import type { Patient } from '../domain/patient';

/** The appointment JSON of SPEC §3 (`name` is the patient's), plus channel and creation time. */
export function toAppointmentView(appointment: Appointment): AppointmentView {
  return {
    id: appointment.id,
    _id: appointment.id,
    date: appointment.date.toISOString(),
    status: appointment.status,
    name: appointment.user.name,
    pacientId: appointment.pacientId,
    user: appointment.user,
    channel: appointment.channel,
    createdAt: appointment.createdAt.toISOString(),
  };
}

export function toPatientView(patient: Patient): AppointmentPatientView {
  return { _id: patient.id, ...patient, rol: 'PACIENT' };
}
