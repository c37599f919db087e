import { centreDayOf } from '@crm/contracts';
import { DayPages } from '@crm/server-kit/service';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';
import { comparatorOf } from './live-list';

/**
 * The list of every appointment (`GET /dates?status=all`, by date) a day at a time (`appointment_days`,
 * `DayPages` of @crm/server-kit; README, "Paging"). A day's rows are its active and final documents,
 * an appointment once (its final copy once it has one), newest first, as the sorted read orders them.
 *
 * What changes a day's count is a new listed appointment: a booking, a move's hold or a waiting-list
 * offer becoming active (each marks its day first). An end does not: the final copy replaces the
 * active document on the same day (both exist for a moment, listed once).
 */
export class AppointmentDays {
  readonly pages: DayPages<AppointmentDocument>;

  constructor(models: AppointmentModels, clock?: () => Date) {
    const listedOn = async (day: string) => listedOnce(await models.Appointment.find({ day }).lean());
    this.pages = new DayPages(
      models.listDays,
      { count: async (day) => (await listedOn(day)).length, rows: listedOn },
      clock,
    );
  }

  /** Before a write that adds an appointment starting at `date` to the list. */
  markedOn(date: Date): Promise<void> {
    return this.pages.marked([centreDayOf(date)]);
  }
}

const newestFirst = comparatorOf({ date: -1, _id: -1 });

/** The listed documents among one day's, each appointment once, newest first (`date`, then `_id`). */
export function listedOnce(docs: AppointmentDocument[]): AppointmentDocument[] {
  const ended = new Set(docs.filter((doc) => doc.kind === 'final').map((doc) => doc.appointmentId));
  return docs
    .filter((doc) => doc.kind === 'final' || (doc.kind === 'active' && !ended.has(doc.appointmentId)))
    .sort(newestFirst);
}
