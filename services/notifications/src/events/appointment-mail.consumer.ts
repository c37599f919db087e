import {
  appointmentBooked,
  appointmentCancelled,
  appointmentDeleted,
  SLOT_MINUTES,
  type CentreProfileData,
  type EventData,
  type EventEnvelope,
} from '@crm/contracts';
import { on } from '@crm/event-bus';
import { senderAddress } from '../config';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { PatientAccessReader } from '../data/patient-access.store';
import { buildIcs } from '../mail/ics';
import type { Attachment, Mailer } from '../mail/mailer';
import type { Email } from '../mail/templates/layout';
import {
  appointmentBookedEmail,
  appointmentCancelledEmail,
  appointmentDeletedEmail,
  centrePlace,
  formatAppointmentDate,
} from '../mail/templates/appointment.templates';

type AppointmentEvent = EventEnvelope<EventData<typeof appointmentBooked>>;

/**
 * E-mails to the patient about their appointment: a confirmation with a calendar file when it is
 * booked, a notice (and a calendar cancellation) when it is cancelled or deleted. The centre's name,
 * address and sender are the current centre profile's. The message id is the event's, so a
 * redelivered event that slips through is recognisable as the same e-mail.
 */
export function appointmentMailHandlers(
  mailer: Mailer,
  publicUrl: string,
  mailFrom: string,
  profile: CentreProfileReader,
  /** Who can sign in; without it every patient is assumed to (the e-mail links to their area). */
  access?: PatientAccessReader,
) {
  /** The booking e-mail points to the area only when the patient can enter it (has a password). */
  const areaUrl = async (event: AppointmentEvent): Promise<string | undefined> => {
    const reachable =
      !access || event.data.by.rol === 'PACIENT' || (await access.canSignIn(event.data.pacientId)) === true;
    return reachable ? `${publicUrl}/user` : undefined;
  };
  const organizerEmail = senderAddress(mailFrom);

  const calendar = (
    centre: CentreProfileData,
    event: AppointmentEvent,
    method: 'PUBLISH' | 'CANCEL',
  ): Attachment => ({
    filename: method === 'PUBLISH' ? 'cita.ics' : 'cita-cancelada.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: buildIcs({
      uid: `appointment-${event.data.id}@crm.events`,
      start: new Date(event.data.date),
      durationMinutes: SLOT_MINUTES,
      summary: `Cita en ${centre.brandName}`,
      description: `Reconocimiento médico. ${centrePlace(centre)}.`,
      location: centre.address,
      organizer: { name: centre.senderName, email: organizerEmail },
      stamp: new Date(event.occurredAt),
      method,
    }),
  });

  const send = async (
    event: AppointmentEvent,
    write: (centre: CentreProfileData, when: string) => Email,
    method: 'PUBLISH' | 'CANCEL',
  ) => {
    const centre = await profile.current();
    await mailer.send({
      to: event.data.user.email,
      senderName: centre.senderName,
      ...write(centre, formatAppointmentDate(new Date(event.data.date))),
      attachments: [calendar(centre, event, method)],
      messageId: `<${event.id}@crm.events>`,
    });
  };

  return [
    on(appointmentBooked, async (event) => {
      const myAppointmentUrl = await areaUrl(event);
      await send(
        event,
        (centre, when) => appointmentBookedEmail(centre, event.data.user.name, when, myAppointmentUrl),
        'PUBLISH',
      );
    }),
    on(appointmentCancelled, (event) =>
      send(
        event,
        (centre, when) =>
          appointmentCancelledEmail(
            centre,
            event.data.user.name,
            when,
            event.data.by.rol,
            `${publicUrl}/dates`,
          ),
        'CANCEL',
      ),
    ),
    on(appointmentDeleted, (event) =>
      send(
        event,
        (centre, when) => appointmentDeletedEmail(centre, event.data.user.name, when, `${publicUrl}/dates`),
        'CANCEL',
      ),
    ),
  ] as const;
}
