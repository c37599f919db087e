import { CENTRE_TIME_ZONE, type Role } from '@crm/contracts';
import { brandedEmail, centrePhone, type Email, type MailCentre } from './layout';

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

/** "<brand>, <street and number, postal code and town>" of the centre profile. */
export const centrePlace = (centre: MailCentre): string => `${centre.brandName}, ${centre.address}`;

const questions = (centre: MailCentre) =>
  `Si tiene cualquier duda, llámenos al ${centrePhone(centre)} o escríbanos a ${centre.email}.`;

/** The content id of the booking code's QR image in the booking e-mails (an inline attachment). */
export const BOOKING_CODE_QR_CID = 'codigo-reserva-qr@crm.events';

/**
 * The booking code as the e-mails show it: what to give the kiosk on arrival
 * (docs/product/kiosk.md#proof), with its QR code when the e-mail carries the image.
 */
export const bookingCodeBlock = (bookingCode: string | undefined, withQr: boolean) =>
  bookingCode
    ? {
        code: {
          label: 'Código de su cita',
          value: bookingCode,
          ...(withQr ? { imageCid: BOOKING_CODE_QR_CID } : {}),
        },
      }
    : {};

const ARRIVAL_SENTENCE =
  'Al llegar, escriba en el quiosco de la entrada su correo electrónico y este código de su cita.';

/** `myAppointmentUrl` only when the patient can enter their area (has a password). */
export function appointmentBookedEmail(
  centre: MailCentre,
  name: string,
  when: string,
  myAppointmentUrl: string | undefined,
  bookingCode?: string,
  withQr = false,
): Email {
  return brandedEmail(centre, {
    subject: `Cita confirmada: ${when}`,
    greetingName: name,
    paragraphs: [
      `Su cita ha quedado reservada para el ${when} (hora de Canarias).`,
      `Lugar: ${centrePlace(centre)}.`,
      ...(bookingCode ? [ARRIVAL_SENTENCE] : []),
      'Le adjuntamos la cita en un archivo de calendario para que pueda añadirla a su agenda.',
      myAppointmentUrl
        ? 'Si no puede acudir, cancele la cita desde su área de paciente para dejar el horario libre.'
        : 'Si no puede acudir, avísenos por teléfono o por correo electrónico para dejar el horario libre.',
    ],
    ...bookingCodeBlock(bookingCode, withQr),
    ...(myAppointmentUrl ? { action: { label: 'Ver mi cita', url: myAppointmentUrl } } : {}),
    footnote: questions(centre),
  });
}

/**
 * What the cancellation means for the fee (docs/product/centre-profile.md#refund-window), when the
 * cancellation says it.
 */
function refundSentence(
  centre: MailCentre,
  refundable: boolean | undefined,
  byPatient: boolean,
  forfeited = false,
): string[] {
  if (refundable === undefined) return [];
  // The patient did not cancel: the notice period is not theirs to have kept.
  if (!byPatient)
    return refundable
      ? ['Le devolveremos el importe pagado.']
      : ['Si ya había pagado la cita, contacte con nosotros para tramitar el importe.'];
  const hours = centre.prices.refundWindowHours;
  if (!refundable && forfeited)
    return [
      `Como su cita se cambió cuando faltaban menos de ${hours} horas para la cita original, el importe pagado no se devuelve.`,
    ];
  return refundable
    ? ['Como ha cancelado con más de ' + hours + ' horas de antelación, le devolveremos el importe pagado.']
    : ['Como faltaban menos de ' + hours + ' horas para la cita, el importe pagado no se devuelve.'];
}

export function appointmentCancelledEmail(
  centre: MailCentre,
  name: string,
  when: string,
  byRole: Role | undefined,
  bookingUrl: string,
  refundable?: boolean,
  /** Released because the account's e-mail was never confirmed. */
  releasedUnconfirmed = false,
  /** Not refunded because a move inside the refund window made the appointment. */
  refundForfeited = false,
  /** Released because the centre requires online payment and none arrived while the slot was held. */
  releasedUnpaid = false,
): Email {
  const byPatient = byRole === 'PACIENT';
  if (releasedUnpaid)
    return brandedEmail(centre, {
      subject: `Cita liberada: ${when}`,
      greetingName: name,
      paragraphs: [
        `Hemos liberado su cita del ${when} porque no hemos recibido el pago a tiempo.`,
        'Si el pago se completa más tarde, le devolveremos el importe automáticamente. Puede reservar una nueva cita cuando quiera.',
      ],
      action: { label: 'Reservar una cita', url: bookingUrl },
      footnote: questions(centre),
    });
  if (releasedUnconfirmed)
    return brandedEmail(centre, {
      subject: `Cita liberada: ${when}`,
      greetingName: name,
      paragraphs: [
        `Hemos liberado su cita del ${when} porque su dirección de correo electrónico sigue sin confirmar.`,
        'Confirme su correo con el enlace que le enviamos (puede pedir otro desde su área de paciente) y reserve de nuevo cuando quiera.',
      ],
      action: { label: 'Reservar una cita', url: bookingUrl },
      footnote: questions(centre),
    });
  return brandedEmail(centre, {
    subject: `Cita cancelada: ${when}`,
    greetingName: name,
    paragraphs: [
      byPatient
        ? `Hemos cancelado su cita del ${when}, como nos ha pedido.`
        : `El centro ha cancelado su cita del ${when}.`,
      ...refundSentence(centre, refundable, byPatient, refundForfeited),
      'Puede reservar una nueva cita cuando quiera.',
    ],
    action: { label: 'Reservar una cita', url: bookingUrl },
    footnote: byPatient ? undefined : questions(centre),
  });
}

export function appointmentDeletedEmail(
  centre: MailCentre,
  name: string,
  when: string,
  bookingUrl: string,
): Email {
  return brandedEmail(centre, {
    subject: `Cita anulada: ${when}`,
    greetingName: name,
    paragraphs: [`El centro ha anulado su cita del ${when}.`, 'Puede reservar una nueva cita cuando quiera.'],
    action: { label: 'Reservar una cita', url: bookingUrl },
    footnote: questions(centre),
  });
}

/** A reschedule: the new time, the old one, and the calendar file that moves the entry. */
export function appointmentRescheduledEmail(
  centre: MailCentre,
  name: string,
  when: string,
  previously: string,
  myAppointmentUrl: string | undefined,
  bookingCode?: string,
  withQr = false,
): Email {
  return brandedEmail(centre, {
    subject: `Cita cambiada: ${when}`,
    greetingName: name,
    paragraphs: [
      `Su cita ha cambiado: ahora es el ${when} (hora de Canarias), en lugar del ${previously}.`,
      `Lugar: ${centrePlace(centre)}.`,
      ...(bookingCode ? [`${ARRIVAL_SENTENCE} Es un código nuevo: el de la cita anterior ya no sirve.`] : []),
      'Le adjuntamos la cita actualizada: al abrirla, su calendario moverá la cita que ya tenía.',
    ],
    ...bookingCodeBlock(bookingCode, withQr),
    ...(myAppointmentUrl ? { action: { label: 'Ver mi cita', url: myAppointmentUrl } } : {}),
    footnote: questions(centre),
  });
}

const TIME = new Intl.DateTimeFormat('es-ES', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
  timeZone: CENTRE_TIME_ZONE,
});

/** A freed slot offered to the first of the day's waiting list, held until `until`. */
export function waitlistOfferEmail(
  centre: MailCentre,
  name: string,
  when: string,
  until: Date,
  offerUrl: string,
): Email {
  return brandedEmail(centre, {
    subject: `Hueco libre: ${when}`,
    greetingName: name,
    paragraphs: [
      `Se ha quedado libre una cita el ${when} (hora de Canarias), el día para el que está en lista de espera.`,
      `Se la guardamos hasta las ${TIME.format(until)}. Después pasará a la siguiente persona de la lista.`,
      'Si ya tiene otra cita, al reservar esta la suya se cambiará a la nueva hora.',
      `Lugar: ${centrePlace(centre)}.`,
    ],
    action: { label: 'Reservar este hueco', url: offerUrl },
    footnote: questions(centre),
  });
}

/**
 * A walk-in booked at the kiosk: the patient is already at the centre, so no calendar file and no
 * "if you cannot come"; only that they are registered, and the time of their turn.
 */
export function walkInRegisteredEmail(centre: MailCentre, name: string, instant: Date): Email {
  return brandedEmail(centre, {
    subject: 'Registrado en el centro',
    greetingName: name,
    paragraphs: [
      `Ha quedado registrado en ${centre.brandName} para ser atendido hoy a partir de las ${TIME.format(instant)}.`,
      'Espere en la sala de espera: le llamaremos en cuanto sea su turno.',
    ],
    footnote: questions(centre),
  });
}

/**
 * The later appointment a patient gave up at the kiosk to be seen now: their own choice, not a
 * cancellation by the centre (the calendar file removes the entry they had).
 */
export function appointmentBroughtForwardEmail(centre: MailCentre, name: string, when: string): Email {
  return brandedEmail(centre, {
    subject: `Cita adelantada: ${when}`,
    greetingName: name,
    paragraphs: [
      `Como ha elegido en el centro ser atendido ahora, su cita del ${when} ya no es necesaria y la hemos retirado.`,
      'Le adjuntamos el aviso para que su calendario la quite.',
    ],
    footnote: questions(centre),
  });
}

/**
 * The centre will be closed on the day of a booked appointment (or closes before it): the appointment
 * is kept, and the patient is asked to move it ("Cambiar cita" in their area, `moveUrl`), or to call
 * when they cannot sign in.
 */
export function appointmentDayClosedEmail(
  centre: MailCentre,
  name: string,
  when: string,
  closure: { reason: string; closesAt?: string },
  moveUrl: string | undefined,
): Email {
  return brandedEmail(centre, {
    subject: `El centro estará cerrado: cambie su cita del ${when}`,
    greetingName: name,
    paragraphs: [
      closure.closesAt
        ? `El día de su cita, el ${when} (hora de Canarias), el centro cerrará a las ${closure.closesAt} (${closure.reason}).`
        : `El día de su cita, el ${when} (hora de Canarias), el centro estará cerrado (${closure.reason}).`,
      'Sentimos las molestias. Su cita sigue reservada a su nombre hasta que elija otra fecha, sin coste adicional.',
      moveUrl
        ? 'Pulse «Cambiar cita» para elegir otro día y hora desde su área de paciente.'
        : 'Llámenos o escríbanos y le daremos otra fecha.',
    ],
    ...(moveUrl ? { action: { label: 'Cambiar cita', url: moveUrl } } : {}),
    footnote: questions(centre),
  });
}

/** The slot held for a patient of the waiting list ended unclaimed; they stay in line for others. */
export function waitlistOfferExpiredEmail(
  centre: MailCentre,
  name: string,
  when: string,
  until: Date,
  myAppointmentUrl: string,
): Email {
  return brandedEmail(centre, {
    subject: `Hueco no reservado: ${when}`,
    greetingName: name,
    paragraphs: [
      `El hueco del ${when} (hora de Canarias) que le guardamos hasta las ${TIME.format(until)} no se reservó a tiempo y ha pasado a la siguiente persona de la lista. No se le volverá a ofrecer.`,
      'Sigue en la lista de espera de ese día: si queda otro hueco libre, le avisaremos por correo electrónico.',
    ],
    action: { label: 'Ver mi lista de espera', url: myAppointmentUrl },
    footnote: questions(centre),
  });
}
