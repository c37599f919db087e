import type { AppointmentStatus } from '@crm/contracts';

/** What staff call each status of an appointment (agenda badges, list column, detail page). */
export const APPOINTMENT_STATUS_LABELS: Record<AppointmentStatus, string> = {
  booked: 'Reservada',
  checkedIn: 'En espera',
  attended: 'Atendida',
  noShow: 'No presentado',
  cancelled: 'Cancelada',
  deleted: 'Eliminada',
};
