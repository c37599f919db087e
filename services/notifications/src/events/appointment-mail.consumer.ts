import {
  appointmentBooked,
  appointmentCancelled,
  appointmentDayClosed,
  appointmentDeleted,
  appointmentRescheduled,
  SLOT_MINUTES,
  waitlistOfferExpired,
  waitlistSlotOffered,
  type CentreProfileData,
  type EventData,
  type EventEnvelope,
} from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { PatientAccessReader } from '../data/patient-access.store';
import { buildIcs } from '../mail/ics';
import { qrCodePng } from '../mail/qr-code';
import type { Attachment, Mailer } from '../mail/mailer';
import type { Email } from '../mail/templates/layout';
import {
  appointmentBookedEmail,
  appointmentCancelledEmail,
  appointmentDayClosedEmail,
  appointmentDeletedEmail,
  appointmentBroughtForwardEmail,
  appointmentRescheduledEmail,
  BOOKING_CODE_QR_CID,
  centrePlace,
  formatAppointmentDate,
  waitlistOfferEmail,
  walkInRegisteredEmail,
  waitlistOfferExpiredEmail,
} from '../mail/templates/appointment.templates';

/** The booking code as a QR image (PNG), shown inside the e-mail under the code. */
function qrImage(bookingCode: string): Attachment {
  return {
    filename: 'codigo-cita.png',
    content: qrCodePng(bookingCode),
    contentType: 'image/png',
    cid: BOOKING_CODE_QR_CID,
  };
}

type AppointmentEvent = EventEnvelope<
  Omit<EventData<typeof appointmentBooked>, 'by'> & {
    by?: EventData<typeof appointmentBooked>['by'];
    calendar?: { uid: string; sequence: number };
  }
>;

/**
 * E-mails to the patient about their appointment: a confirmation with a calendar file when it is
 * booked (a kiosk walk-in, already at the centre, only hears that it is registered), the new time (a file that moves the same calendar entry: same UID, higher SEQUENCE) when
 * it is rescheduled, a notice (and a calendar cancellation) when it is cancelled or deleted; a
 * cancellation that only made room for a reschedule sends nothing (the reschedule's e-mail says it);
 * a later appointment given up at the kiosk to be seen now is said to be brought forward, not
 * cancelled by the centre; a slot offered to the waiting list, the link that claims it. The centre's name,
 * address and sender are the current centre profile's. The message id is the event's, so a
 * redelivered event that slips through is recognisable as the same e-mail.
 */
export function appointmentMailHandlers(
  mailer: Mailer,
  publicUrl: string,
  profile: CentreProfileReader,
  /** Who can sign in; without it every patient is assumed to (the e-mail links to their area). */
  access?: PatientAccessReader,
) {
  /** The booking e-mail points to the area only when the patient can enter it (has a password). */
  const areaUrl = async (event: AppointmentEvent): Promise<string | undefined> => {
    const reachable =
      !access || event.data.by?.rol === 'PACIENT' || (await access.canSignIn(event.data.pacientId)) === true;
    return reachable ? `${publicUrl}/user` : undefined;
  };

  const calendar = (
    centre: CentreProfileData,
    event: AppointmentEvent,
    method: 'PUBLISH' | 'CANCEL',
  ): Attachment => ({
    filename: method === 'PUBLISH' ? 'cita.ics' : 'cita-cancelada.ics',
    contentType: `text/calendar; charset=utf-8; method=${method}`,
    content: buildIcs({
      // The first appointment's id names the entry for good; moves and the end raise its sequence.
      uid: `appointment-${event.data.calendar?.uid ?? event.data.id}@crm.events`,
      sequence: (event.data.calendar?.sequence ?? 0) + (method === 'CANCEL' ? 1 : 0),
      start: new Date(event.data.date),
      durationMinutes: SLOT_MINUTES,
      summary: `Cita en ${centre.brandName}`,
      description: `Reconocimiento médico. ${centrePlace(centre)}.`,
      location: centre.address,
      // Calendar replies and "contact the organiser" reach the centre, not the sending mailbox.
      organizer: { name: centre.senderName, email: centre.email },
      stamp: new Date(event.occurredAt),
      method,
    }),
  });

  /** One e-mail to the patient about the appointment's date, written with the centre's current profile. */
  const mail = async (
    event: { id: string; data: { user: { email: string }; date: string } },
    write: (centre: CentreProfileData, when: string) => Email,
    attachments: (centre: CentreProfileData) => Attachment[] = () => [],
  ) => {
    const centre = await profile.current();
    const files = attachments(centre);
    await mailer.send({
      to: event.data.user.email,
      senderName: centre.senderName,
      ...write(centre, formatAppointmentDate(new Date(event.data.date))),
      ...(files.length ? { attachments: files } : {}),
      messageId: `<${event.id}@crm.events>`,
    });
  };

  const send = async (
    event: AppointmentEvent,
    write: (centre: CentreProfileData, when: string, withQr: boolean) => Email,
    /** No calendar file: a walk-in is already at the centre. */
    method: 'PUBLISH' | 'CANCEL' | undefined,
  ) => {
    // A confirmation shows the booking code with its QR code, an inline image (docs/product/kiosk.md#proof).
    const qr = method === 'PUBLISH' && event.data.bookingCode ? qrImage(event.data.bookingCode) : undefined;
    return mail(
      event,
      (centre, when) => write(centre, when, qr !== undefined),
      (centre) => [...(method ? [calendar(centre, event, method)] : []), ...(qr ? [qr] : [])],
    );
  };

  return [
    on(appointmentBooked, async (event) => {
      if (event.data.channel === 'kiosk')
        return send(
          event,
          (centre) => walkInRegisteredEmail(centre, event.data.user.name, new Date(event.data.date)),
          undefined,
        );
      const myAppointmentUrl = await areaUrl(event);
      await send(
        event,
        (centre, when, withQr) =>
          appointmentBookedEmail(
            centre,
            event.data.user.name,
            when,
            myAppointmentUrl,
            event.data.bookingCode,
            withQr,
          ),
        'PUBLISH',
      );
    }),
    on(appointmentRescheduled, async (event) => {
      const myAppointmentUrl = await areaUrl(event);
      const previously = formatAppointmentDate(new Date(event.data.previous.date));
      await send(
        event,
        (centre, when, withQr) =>
          appointmentRescheduledEmail(
            centre,
            event.data.user.name,
            when,
            previously,
            myAppointmentUrl,
            event.data.bookingCode,
            withQr,
          ),
        'PUBLISH',
      );
    }),
    on(appointmentCancelled, async (event) => {
      if (event.data.rescheduledTo) return;
      // The kiosk's "be seen now": the patient gave the later slot up themself.
      if (event.data.replacedBy)
        return send(
          event,
          (centre, when) => appointmentBroughtForwardEmail(centre, event.data.user.name, when),
          'CANCEL',
        );
      await send(
        event,
        (centre, when) =>
          appointmentCancelledEmail(
            centre,
            event.data.user.name,
            when,
            event.data.by?.rol,
            `${publicUrl}/dates`,
            event.data.refundable,
            event.data.endedBecause === 'unconfirmedAccount',
            event.data.refundForfeited === true,
            event.data.endedBecause === 'unpaid',
          ),
        'CANCEL',
      );
    }),
    on(appointmentDeleted, (event) =>
      send(
        event,
        (centre, when) => appointmentDeletedEmail(centre, event.data.user.name, when, `${publicUrl}/dates`),
        'CANCEL',
      ),
    ),
    on(waitlistSlotOffered, (event) =>
      mail(event, (centre, when) =>
        waitlistOfferEmail(
          centre,
          event.data.user.name,
          when,
          new Date(event.data.expiresAt),
          `${publicUrl}/dates/offer/${event.data.token}`,
        ),
      ),
    ),
    on(appointmentDayClosed, async (event) => {
      const moveUrl = await areaUrl(event);
      const { reason, closesAt } = event.data;
      await mail(event, (centre, when) =>
        appointmentDayClosedEmail(
          centre,
          event.data.user.name,
          when,
          { reason, ...(closesAt ? { closesAt } : {}) },
          moveUrl,
        ),
      );
    }),
    on(waitlistOfferExpired, (event) =>
      mail(event, (centre, when) =>
        waitlistOfferExpiredEmail(
          centre,
          event.data.user.name,
          when,
          new Date(event.data.expiresAt),
          `${publicUrl}/user`,
        ),
      ),
    ),
  ] as const;
}
