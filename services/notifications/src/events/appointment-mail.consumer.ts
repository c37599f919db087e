import {
  appointmentBooked,
  appointmentCancelled,
  appointmentDeleted,
  SLOT_MINUTES,
  type EventData,
  type EventEnvelope,
} from '@crm/contracts';
import { on } from '@crm/event-bus';
import { buildIcs } from '../mail/ics';
import type { Attachment, Mailer } from '../mail/mailer';
import {
  appointmentBookedEmail,
  appointmentCancelledEmail,
  appointmentDeletedEmail,
  CENTRE,
  formatAppointmentDate,
} from '../mail/templates/appointment.templates';

type AppointmentEvent = EventEnvelope<EventData<typeof appointmentBooked>>;

/** "Centro <citas@x>" → "citas@x": the calendar entry's organizer. */
const addressOf = (mailFrom: string) => /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();

/**
 * E-mails to the patient about their appointment: a confirmation with a calendar file when it is
 * booked, a notice (and a calendar cancellation) when it is cancelled or deleted. The message id is
 * the event's, so a redelivered event that slips through is recognisable as the same e-mail.
 */
export function appointmentMailHandlers(mailer: Mailer, publicUrl: string, mailFrom: string) {
  const organizer = { name: CENTRE.name, email: addressOf(mailFrom) };

  const calendar = (event: AppointmentEvent, method: 'PUBLISH' | 'CANCEL'): Attachment => ({
    filename: method === 'PUBLISH' ? 'cita.ics' : 'cita-cancelada.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: buildIcs({
      uid: `appointment-${event.data.id}@crm.events`,
      start: new Date(event.data.date),
      durationMinutes: SLOT_MINUTES,
      summary: `Cita en ${CENTRE.name}`,
      description: `Reconocimiento médico. ${CENTRE.name}, ${CENTRE.address}.`,
      location: `${CENTRE.name}, ${CENTRE.address}`,
      organizer,
      stamp: new Date(event.occurredAt),
      method,
    }),
  });

  const send = (
    event: AppointmentEvent,
    email: { subject: string; html: string; text: string },
    method: 'PUBLISH' | 'CANCEL',
  ) =>
    mailer.send({
      to: event.data.user.email,
      ...email,
      attachments: [calendar(event, method)],
      messageId: `<${event.id}@crm.events>`,
    });

  const when = (event: AppointmentEvent) => formatAppointmentDate(new Date(event.data.date));

  return [
    on(appointmentBooked, (event) =>
      send(event, appointmentBookedEmail(event.data.user.name, when(event), `${publicUrl}/user`), 'PUBLISH'),
    ),
    on(appointmentCancelled, (event) =>
      send(
        event,
        appointmentCancelledEmail(event.data.user.name, when(event), event.data.by.rol, `${publicUrl}/dates`),
        'CANCEL',
      ),
    ),
    on(appointmentDeleted, (event) =>
      send(event, appointmentDeletedEmail(event.data.user.name, when(event), `${publicUrl}/dates`), 'CANCEL'),
    ),
  ] as const;
}
