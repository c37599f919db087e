/**
 * The patient area's first screen ("/user"), drawn by the route flag before the app's code has
 * arrived: the patient's appointment (date, time at the centre, kiosk code) asked with the stored
 * session, in the markup MyAppointmentPage renders. "Cambiar cita" is a plain link and works at
 * once; cancelling needs the app (its button is disabled until React replaces the copy).
 */
import { WHAT_TO_BRING } from '@crm/contracts/booking-rules';
import { escapeHtml as escape } from './escape-html';

interface CurrentAppointment {
  date: string | null;
  status?: string;
  bookingCode?: string;
}

const ZONE = 'Atlantic/Canary';

/** The role in a session token's payload (a JWT), or '' when it cannot be read. */
export function tokenRole(token: string): string {
  try {
    const payload = token.split('.')[1]!.replace(/-/g, '+').replace(/_/g, '/');
    return String((JSON.parse(atob(payload)) as { rol?: unknown }).rol ?? '');
  } catch {
    return '';
  }
}

/** The patient's appointment, or undefined when it could not be read (the app then says why). */
export function requestAppointment(token: string): Promise<CurrentAppointment | undefined> {
  return fetch('/api/v1/dates/currentDate', { headers: { Authorization: `Bearer ${token}` } })
    .then((response) =>
      response.ok ? (response.json() as Promise<CurrentAppointment>) : response.text().then(() => undefined),
    )
    .catch(() => undefined);
}

function cardMarkup(appointment: CurrentAppointment): string {
  if (!appointment.date)
    return '<p class="appointment-card__empty">No tienes ninguna cita reservada</p><a class="wk-button" href="/dates">Reservar Cita</a>';
  const start = new Date(appointment.date);
  // "01/12/2026" and "17:00" at the centre, as web-kit's formatDate and formatTime write them.
  const day = new Intl.DateTimeFormat('en-GB', { timeZone: ZONE }).format(start);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone: ZONE,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(start);
  const checkedIn = appointment.status === 'checkedIn';
  const code = appointment.bookingCode
    ? `<div><dt>Código de la cita</dt><dd data-testid="booking-code" class="appointment-card__code">${escape(appointment.bookingCode)}</dd></div>`
    : '';
  const codeNote =
    appointment.bookingCode && !checkedIn
      ? '<p class="appointment-card__note">Al llegar al centro, escriba en el quiosco de la entrada su correo electrónico y este código.</p>'
      : '';
  const actions = checkedIn
    ? '<p class="appointment-card__checked-in" role="status">Ha registrado su llegada. Espere en la sala: le llamaremos en cuanto sea su turno. Para cualquier cambio, hable con recepción.</p>'
    : '<div class="appointment-card__actions"><a class="wk-button" href="/dates?cambiar=1">Cambiar cita</a><button type="button" class="wk-button wk-button--danger" disabled>Cancelar Cita</button></div>';
  return `<h2 class="appointment-card__title">Su próxima cita</h2><dl class="appointment-card__details"><div><dt>Fecha</dt><dd data-testid="appointment-date">${day}</dd></div><div><dt>Hora</dt><dd data-testid="appointment-time">${time} (${ZONE})</dd></div>${code}</dl>${codeNote}<p class="appointment-card__note">${escape(WHAT_TO_BRING)}</p>${actions}`;
}

/** Fills the pre-rendered card once the appointment is known, if React has not replaced it yet. */
export function fillAppointment(card: Element, appointment: Promise<CurrentAppointment | undefined>): void {
  void appointment.then((known) => {
    if (!known || !card.isConnected) return;
    card.innerHTML = cardMarkup(known);
    card.setAttribute('aria-busy', 'false');
  });
}
