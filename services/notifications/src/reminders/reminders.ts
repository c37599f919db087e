import {
  appointmentAttended,
  appointmentBooked,
  appointmentCancelled,
  appointmentCheckedIn,
  appointmentDeleted,
  appointmentNoShow,
  appointmentRescheduled,
  reminderDue,
  WHAT_TO_BRING,
} from '@crm/contracts';
import { on } from '@crm/event-bus';
import type { CentreProfileReader } from '../data/centre-profile.client';
import type { Mailer } from '../mail/mailer';
import { centrePlace, formatAppointmentDate } from '../mail/templates/appointment.templates';
import { brandedEmail } from '../mail/templates/layout';
import type { ReminderStore } from './reminder.store';
import { refundDeadline, reminderDueAt, type ReminderPolicy } from './reminder-plan';

interface AppointmentData {
  id: string;
  date: string;
  user: { id: string; name: string; email: string };
  refundForfeited?: boolean;
}

/** The centre's refund window in milliseconds (the profile's hours). */
const refundWindowMs = async (profile: CentreProfileReader) =>
  (await profile.current()).prices.refundWindowHours * 3_600_000;

/**
 * The reminders' schedule, fed by the appointments' events: booked or moved here → a reminder due
 * as `reminderDueAt` plans it (before the refund window closes when there is time, else a few hours
 * before the start; none when booked very shortly before); any end (cancelled, moved away, deleted,
 * checked in, attended, no-show) → none.
 */
export function reminderScheduleHandlers(
  store: ReminderStore,
  policy: ReminderPolicy,
  profile: CentreProfileReader,
  clock = () => new Date(),
) {
  const schedule = async ({ id, date, user, refundForfeited }: AppointmentData) => {
    const start = new Date(date);
    const dueAt = reminderDueAt(start, clock(), await refundWindowMs(profile), policy, refundForfeited);
    if (!dueAt) return;
    await store.schedule(
      {
        appointmentId: id,
        date,
        user: { id: user.id, name: user.name, email: user.email },
        ...(refundForfeited ? { refundForfeited: true } : {}),
      },
      dueAt,
    );
  };
  const drop = ({ id, date }: { id: string; date: string }) => store.drop(id, new Date(date));
  return [
    on(appointmentBooked, (event) => schedule(event.data)),
    on(appointmentRescheduled, (event) => schedule(event.data)),
    on(appointmentCancelled, (event) => drop(event.data)),
    on(appointmentDeleted, (event) => drop(event.data)),
    on(appointmentCheckedIn, (event) => drop(event.data)),
    on(appointmentAttended, (event) => drop(event.data)),
    on(appointmentNoShow, (event) => drop(event.data)),
  ] as const;
}

/** The poller's run: claims every due reminder (each once, whichever replica gets there first). */
export async function claimDueReminders(store: ReminderStore, now = new Date()): Promise<number> {
  let claimed = 0;
  for (const reminder of await store.due(now, 200)) if (await store.claim(reminder, now)) claimed++;
  // A day after an appointment its reminder (or tombstone) has no more use.
  await store.forgetBefore(new Date(now.getTime() - 86_400_000));
  return claimed;
}

/**
 * The reminder e-mail: when (Canary time), where (the profile), what to bring, and what cancelling
 * means now: refunded until the window closes (with the deadline), or no longer refunded.
 */
export function reminderMailHandlers(
  mailer: Mailer,
  publicUrl: string,
  profile: CentreProfileReader,
  clock = () => new Date(),
) {
  return [
    on(reminderDue, async (event) => {
      const centre = await profile.current();
      const start = new Date(event.data.date);
      const when = formatAppointmentDate(start);
      const windowHours = centre.prices.refundWindowHours;
      const deadline = refundDeadline(start, clock(), windowHours * 3_600_000, event.data.refundForfeited);
      await mailer.send({
        to: event.data.user.email,
        senderName: centre.senderName,
        ...brandedEmail(centre, {
          subject: `Recordatorio de su cita: ${when}`,
          greetingName: event.data.user.name,
          paragraphs: [
            `Le recordamos su cita del ${when} (hora de Canarias).`,
            `Lugar: ${centrePlace(centre)}.`,
            WHAT_TO_BRING,
            deadline
              ? `Si no puede acudir, cambie o cancele la cita desde su área de paciente. Si cancela antes del ${formatAppointmentDate(deadline)} (${windowHours} horas antes de la cita), le devolveremos el importe pagado; después, la cancelación no se reembolsa.`
              : event.data.refundForfeited
                ? 'Si no puede acudir, cancele la cita desde su área de paciente para dejar el horario libre. Como la cita se cambió cuando faltaban menos de ' +
                  `${windowHours} horas para la original, el importe pagado no se devuelve.`
                : `Si no puede acudir, cancele la cita desde su área de paciente para dejar el horario libre. Faltan menos de ${windowHours} horas para la cita, por lo que el importe pagado ya no se devuelve.`,
          ],
          action: { label: 'Cambiar o cancelar mi cita', url: `${publicUrl}/user` },
        }),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
  ] as const;
}
