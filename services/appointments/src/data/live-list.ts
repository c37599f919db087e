import moment from 'moment-timezone';
import { CENTRE_TIME_ZONE, centreDayOf, personSearched, searchQueryOf } from '@crm/contracts';
import type { AppointmentPageQuery } from '../domain/appointment';
import type { AppointmentDocument, AppointmentModels } from './appointment.model';
import { eachEquality } from './equality-reads';

/** The statuses of the live part of the centre: what is booked now, and what ended today. */
export const LIVE_STATUSES: ReadonlySet<AppointmentPageQuery['status']> = new Set([
  'booked',
  'checkedIn',
  'current',
]);

/**
 * A check-in, an attendance and a no-show are only ever made from the check-in window on (it opens
 * two hours before the start: lifecycle.rules.ts): whatever is checked in, or ended that way, by now
 * starts before this much from now.
 */
const AHEAD_MS = 24 * 60 * 60 * 1000;

export interface LiveList {
  /** Every matching document, in the requested order (the page is the caller's slice). */
  docs: AppointmentDocument[];
  /** Check-in times of the active appointments checked in. */
  checkIns: Map<string, Date>;
}

/**
 * The back office's day of work (`booked`, `checkedIn`, `current`), read by equalities only: the
 * active documents (`kind`), and the check-ins and today's ends by `day` (the days from the start
 * of today to `AHEAD_MS` from now), then filtered and sorted in memory. As the centre's history
 * grows, this reads the same few hundred documents; the list of every status (`all`) or of an ended
 * one is a different query (sorted, by index on MongoDB), since FerretDB serves no `$in`, `$or` or
 * range from an index and read every appointment of five years for each page of this list.
 */
export async function readLiveList(
  models: AppointmentModels,
  { status, search, endedFrom, now = new Date() }: AppointmentPageQuery,
  order: Record<string, 1 | -1>,
): Promise<LiveList> {
  const soon = new Date(now.getTime() + AHEAD_MS);
  const active = await models.Appointment.find({ kind: 'active' }).lean<AppointmentDocument[]>();
  const activeIds = new Set(active.map((doc) => doc.appointmentId));
  const checkInDays = active.filter((doc) => doc.date < soon).map((doc) => doc.day!);
  const checkIns = new Map(
    (
      await eachEquality(checkInDays, (day) =>
        models.Appointment.find({ day, kind: 'checkin' })
          .select({ appointmentId: 1, checkedInAt: 1 })
          .lean<Array<{ appointmentId: string; checkedInAt: Date }>>(),
      )
    )
      .filter((doc) => activeIds.has(doc.appointmentId))
      .map((doc) => [doc.appointmentId, doc.checkedInAt] as const),
  );

  let docs: AppointmentDocument[];
  if (status === 'booked') docs = active.filter((doc) => !checkIns.has(doc.appointmentId));
  else if (status === 'checkedIn') docs = active.filter((doc) => checkIns.has(doc.appointmentId));
  else {
    const from = endedFrom ?? now;
    const ended = (
      await eachEquality(daysBetween(centreDayOf(from), centreDayOf(soon)), (day) =>
        models.Appointment.find({ day, kind: 'final' }).lean<AppointmentDocument[]>(),
      )
    ).filter((doc) => (doc.status === 'attended' || doc.status === 'noShow') && doc.date >= from);
    // An appointment ended by a writer that crashed before deleting its active document (the
    // housekeeping removes it) is listed once, as it ended.
    const endedIds = new Set(ended.map((doc) => doc.appointmentId));
    docs = [...active.filter((doc) => !endedIds.has(doc.appointmentId)), ...ended];
  }
  if (search) docs = docs.filter(matcherOf(search));
  return { docs: docs.sort(comparatorOf(order)), checkIns };
}

/** The search of the list (`searchQueryOf` of @crm/contracts), as the stored lists search. */
export function matcherOf(search: string): (doc: AppointmentDocument) => boolean {
  const query = searchQueryOf(search);
  return (doc) => query.matches(personSearched(doc.user));
}

/** The in-memory equivalent of a MongoDB sort on dates and strings. */
export function comparatorOf(order: Record<string, 1 | -1>) {
  const keys = Object.entries(order);
  return (a: AppointmentDocument, b: AppointmentDocument): number => {
    for (const [field, direction] of keys) {
      const [x, y] = [sortValue(a, field), sortValue(b, field)];
      if (x !== y) return (x < y ? -1 : 1) * direction;
    }
    return 0;
  };
}

function sortValue(doc: AppointmentDocument, field: string): number | string {
  const value = (doc as unknown as Record<string, unknown>)[field];
  return value instanceof Date ? value.getTime() : String(value ?? '');
}

/** `YYYY-MM-DD` from `first` to `last`, both included. */
function daysBetween(first: string, last: string): string[] {
  const days: string[] = [];
  for (const day = moment.tz(first, CENTRE_TIME_ZONE); day.format('YYYY-MM-DD') <= last; day.add(1, 'day'))
    days.push(day.format('YYYY-MM-DD'));
  return days;
}
