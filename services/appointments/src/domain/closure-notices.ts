import {
  appointmentDayClosed,
  dayStatus,
  slotOpenOnDay,
  SLOT_MINUTES,
  type EventEnvelope,
} from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { correlationIdOrNew } from '@crm/server-kit';
import type { AppointmentRepository } from './appointment';
import type { CentreCalendar } from './centre-calendar';
import { eventData } from '../events/appointment.payloads';
import { localDayOf, localMinuteOfDay } from './slot-rules';

export interface ClosureNotices {
  /** Stores that a notice was sent, with its event; false when it was already. */
  record(key: string, appointmentId: string, event: EventEnvelope): Promise<boolean>;
}

/** How far ahead booked appointments are looked at when the closures change. */
const LOOK_AHEAD_MS = 400 * 86_400_000;

/**
 * When the centre's closures change, every booked appointment that now falls on a closed day (or
 * after a shortened day's closing time) is announced once with `appointments.appointment.dayClosed.v1`:
 * the e-mail worker tells the patient and offers "Cambiar cita". The appointment itself stays booked,
 * so the patient keeps it (and its refund status) until they move or cancel it.
 */
export class DayClosedNotifier {
  constructor(
    private readonly appointments: Pick<AppointmentRepository, 'listBetween'>,
    private readonly calendar: CentreCalendar,
    private readonly notices: ClosureNotices,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** Resolves with the number of patients told this time. */
  async closuresChanged(): Promise<number> {
    const closures = await this.calendar.closures();
    const now = this.clock();
    const upcoming = await this.appointments.listBetween(now, new Date(now.getTime() + LOOK_AHEAD_MS));
    let told = 0;
    for (const appointment of upcoming) {
      if (appointment.status !== 'booked' || appointment.walkIn) continue;
      const day = localDayOf(appointment.date);
      const status = dayStatus(day, closures);
      const minute = localMinuteOfDay(appointment.date);
      if (slotOpenOnDay(status, minute, SLOT_MINUTES)) continue;
      const closesAt = status.open ? status.closesAt : undefined;
      const reason = status.reason ?? 'Jornada reducida';
      const event = createEnvelope(
        appointmentDayClosed,
        { ...eventData(appointment, undefined), reason, ...(closesAt ? { closesAt } : {}) },
        correlationIdOrNew(),
      );
      const key = `${appointment.id}:${day}:${closesAt ?? 'closed'}`;
      if (await this.notices.record(key, appointment.id, event)) told++;
    }
    return told;
  }
}
