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

interface AppointmentData {
  id: string;
  date: string;
  user: { id: string; name: string; email: string };
}

/**
 * The reminders' schedule, fed by the appointments' events: booked or moved here → a reminder due
 * `leadMs` before the start (none when that moment has passed already: booked late); any end
 * (cancelled, moved away, deleted, checked in, attended, no-show) → none.
 */
export function reminderScheduleHandlers(store: ReminderStore, leadMs: number, clock = () => new Date()) {
  const schedule = async ({ id, date, user }: AppointmentData) => {
    const dueAt = new Date(Date.parse(date) - leadMs);
    if (dueAt.getTime() <= clock().getTime()) return;
    await store.schedule(
      { appointmentId: id, date, user: { id: user.id, name: user.name, email: user.email } },
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

/** The reminder e-mail: when (Canary time), where (the profile), what to bring, and the way to change or cancel. */
export function reminderMailHandlers(mailer: Mailer, publicUrl: string, profile: CentreProfileReader) {
  return [
    on(reminderDue, async (event) => {
      const centre = await profile.current();
      const when = formatAppointmentDate(new Date(event.data.date));
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
            'Si no puede acudir, cambie o cancele la cita desde su área de paciente para dejar el horario libre.',
          ],
          action: { label: 'Cambiar o cancelar mi cita', url: `${publicUrl}/user` },
        }),
        messageId: `<${event.id}@crm.events>`,
      });
    }),
  ] as const;
}
