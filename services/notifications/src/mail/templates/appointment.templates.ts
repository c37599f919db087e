import { CENTRE_TIME_ZONE, type Role } from '@crm/contracts';
import { brandedEmail, type Email } from './layout';

/**
 * The centre as it appears in appointment e-mails and calendar entries.
 * TODO(lead): the real street address belongs in the configuration (e.g. CENTRE_ADDRESS).
 */
export const CENTRE = {
  name: 'Centro de Reconocimiento Médico',
  address: 'Calle Ejemplo 1, 35001 Las Palmas de Gran Canaria, España',
};

const FORMAT = new Intl.DateTimeFormat('es-ES', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: CENTRE_TIME_ZONE,
});

/** "lunes, 23 de noviembre de 2026, 09:15" — the centre's local time, 24 h. */
export const formatAppointmentDate = (instant: Date): string => FORMAT.format(instant);

export function appointmentBookedEmail(name: string, when: string, myAppointmentUrl: string): Email {
  return brandedEmail({
    subject: `Cita confirmada: ${when}`,
    greetingName: name,
    paragraphs: [
      `Tu cita ha quedado reservada para el ${when} (hora de Canarias).`,
      `Lugar: ${CENTRE.name}, ${CENTRE.address}.`,
      'Te adjuntamos la cita en un archivo de calendario para que puedas añadirla a tu agenda.',
      'Si no puedes acudir, cancela la cita desde tu área de paciente para dejar el horario libre.',
    ],
    action: { label: 'Ver mi cita', url: myAppointmentUrl },
  });
}

export function appointmentCancelledEmail(
  name: string,
  when: string,
  byRole: Role,
  bookingUrl: string,
): Email {
  const byPatient = byRole === 'PACIENT';
  return brandedEmail({
    subject: `Cita cancelada: ${when}`,
    greetingName: name,
    paragraphs: [
      byPatient
        ? `Hemos cancelado tu cita del ${when}, como nos has pedido.`
        : `El centro ha cancelado tu cita del ${when}.`,
      'Puedes reservar una nueva cita cuando quieras.',
    ],
    action: { label: 'Reservar una cita', url: bookingUrl },
    footnote: byPatient ? undefined : 'Si tienes cualquier duda, ponte en contacto con nosotros.',
  });
}

export function appointmentDeletedEmail(name: string, when: string, bookingUrl: string): Email {
  return brandedEmail({
    subject: `Cita anulada: ${when}`,
    greetingName: name,
    paragraphs: [
      `El centro ha anulado tu cita del ${when}.`,
      'Puedes reservar una nueva cita cuando quieras.',
    ],
    action: { label: 'Reservar una cita', url: bookingUrl },
    footnote: 'Si tienes cualquier duda, ponte en contacto con nosotros.',
  });
}
