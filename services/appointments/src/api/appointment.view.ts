import type { AgendaEntry, AppointmentPatientView, AppointmentView } from '@crm/contracts';
import type { Appointment } from '../domain/appointment';
import type { Patient } from '../domain/patient';

/** The appointment JSON (`name` is the patient's), plus channel and creation time. */
export function toAppointmentView(appointment: Appointment): AppointmentView {
  return {
    id: appointment.id,
    _id: appointment.id,
    date: appointment.date.toISOString(),
    status: appointment.status,
    name: appointment.user.name,
    pacientId: appointment.patientId,
    user: appointment.user,
    channel: appointment.channel,
    createdAt: appointment.createdAt.toISOString(),
    ...(appointment.checkedInAt ? { checkedInAt: appointment.checkedInAt.toISOString() } : {}),
    ...(appointment.endedAt ? { endedAt: appointment.endedAt.toISOString() } : {}),
    ...(appointment.rescheduledTo ? { rescheduledTo: appointment.rescheduledTo } : {}),
    ...(appointment.rescheduledFrom
      ? {
          rescheduledFrom: {
            id: appointment.rescheduledFrom.id,
            date: appointment.rescheduledFrom.date.toISOString(),
          },
        }
      : {}),
    ...(appointment.refundable !== undefined ? { refundable: appointment.refundable } : {}),
    ...(appointment.refundForfeited ? { refundForfeited: true as const } : {}),
    ...(appointment.bookingCode ? { bookingCode: appointment.bookingCode } : {}),
  };
}

/** A line of the day's agenda. */
export function toAgendaEntry(appointment: Appointment): AgendaEntry {
  const { id, date, status, name, pacientId, user, channel, checkedInAt, endedAt, bookingCode } =
    toAppointmentView(appointment);
  return {
    id,
    date,
    status,
    name,
    pacientId,
    user,
    channel,
    ...(checkedInAt ? { checkedInAt } : {}),
    ...(endedAt ? { endedAt } : {}),
    ...(bookingCode ? { bookingCode } : {}),
  };
}

export function toPatientView(patient: Patient): AppointmentPatientView {
  return { _id: patient.id, ...patient, rol: 'PACIENT' };
}
