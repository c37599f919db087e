import moment from 'moment-timezone/moment-timezone';
import {
  CENTRE_TIME_ZONE,
  isOpeningWeekday,
  slotMinutesOfDay,
  SLOT_MINUTES,
} from '@crm/contracts/centre-hours';
import { dayStatus, slotOpenOnDay, type CentreClosures } from '@crm/contracts/centre-calendar';
import tzData from './tz-atlantic-canary.json';
import { MONTH_NAMES, WEEKDAY_NAMES } from './calendar-names';

/**
 * Time of the centre (docs/product/centre-profile.md#centre-clock): every date the site and the back office
 * show or offer is wall-clock time in Atlantic/Canary, whatever the browser's zone. moment-timezone carries
 * only this zone's data (tz-atlantic-canary.json, made by packages/web-kit/scripts/make-tz-data.mjs).
 *
 * Imported as `@crm/web-kit/time`, never from the package's main entry: moment is heavy, and the
 * shell's "/" must not load it (only lazily loaded pages import this sub-module).
 */
moment.tz.load(tzData);

export const CENTRE_TZ = CENTRE_TIME_ZONE;

export { MONTH_NAMES, WEEKDAY_INITIALS, WEEKDAY_NAMES } from './calendar-names';

/** A calendar day as "YYYY-MM-DD". */
export type Day = string;

export const inCentre = (instant: string | number | Date) => moment.tz(instant, CENTRE_TZ);
const dayStart = (day: Day) => moment.tz(day, 'YYYY-MM-DD', CENTRE_TZ);

/** Today's date at the centre. */
export const todayAtCentre = (now: number = Date.now()): Day => inCentre(now).format('YYYY-MM-DD');

/** "24/11/2026" */
export const formatDay = (day: Day): string => dayStart(day).format('DD/MM/YYYY');
/** Date of an instant at the centre, "24/11/2026" (dd/MM/yyyy). */
export const formatDate = (instant: string | number | Date): string => inCentre(instant).format('DD/MM/YYYY');
/** Time of an instant at the centre, 24-hour clock, "09:15". */
export const formatTime = (instant: string | number | Date): string => inCentre(instant).format('HH:mm');
/** "24/11/2026 09:15" */
export const formatDateTime = (instant: string | number | Date): string =>
  inCentre(instant).format('DD/MM/YYYY HH:mm');

export const isWeekend = (day: Day): boolean => [0, 6].includes(dayStart(day).day());

/** Why the centre is closed on a working day (a holiday's name, a closure's reason), or undefined. */
export function closedReason(day: Day, closures?: CentreClosures): string | undefined {
  if (!isOpeningWeekday(dayStart(day).isoWeekday())) return undefined;
  const status = dayStatus(day, closures);
  return status.open ? undefined : status.reason;
}

/** "martes, 24 de noviembre de 2026" (for screen readers). */
export function longDay(day: Day): string {
  const m = dayStart(day);
  return `${WEEKDAY_NAMES[m.day()]}, ${m.date()} de ${MONTH_NAMES[m.month()].toLowerCase()} de ${m.year()}`;
}

function takenTimes(taken: Iterable<string>): Set<number> {
  const times = new Set<number>();
  for (const instant of taken) {
    const t = Date.parse(instant);
    if (!Number.isNaN(t)) times.add(t);
  }
  return times;
}

/**
 * The free 15-minute appointment slots of one day as ISO instants: Monday to Friday within the
 * opening hours, later than `now`, not in `booked` (compared as instants); none on public holidays
 * and the profile's closed days, a shortened day's only up to its closing time.
 */
export function freeSlots(
  day: Day,
  booked: Iterable<string>,
  now: number = Date.now(),
  closures?: CentreClosures,
): string[] {
  const start = dayStart(day);
  if (!isOpeningWeekday(start.isoWeekday())) return [];
  const status = dayStatus(day, closures);
  const taken = takenTimes(booked);
  const slots: string[] = [];
  for (const minute of slotMinutesOfDay()) {
    if (!slotOpenOnDay(status, minute, SLOT_MINUTES)) continue;
    const t = start
      .clone()
      .hours(Math.floor(minute / 60))
      .minutes(minute % 60)
      .valueOf();
    if (t > now && !taken.has(t)) slots.push(new Date(t).toISOString());
  }
  return slots;
}

/**
 * Room slots (docs/product/rooms.md#room-slots, ROOM_SLOT_RULES in @crm/contracts): hourly from the day's
 * 08:00 over a 10-hour window (08:00 … 17:00 in Atlantic/Canary), none on weekends, only future ones,
 * reserved ones removed.
 */
export const ROOM_FIRST_HOUR = 8;
export const ROOM_HOURS_PER_DAY = 10;
export function freeRoomSlots(day: Day, reserved: Iterable<string>, now: number = Date.now()): string[] {
  if (isWeekend(day)) return [];
  const start = dayStart(day);
  const taken = takenTimes(reserved);
  const slots: string[] = [];
  for (let hour = ROOM_FIRST_HOUR; hour < ROOM_FIRST_HOUR + ROOM_HOURS_PER_DAY; hour += 1) {
    const t = start.clone().add(hour, 'hours').valueOf();
    if (t > now && !taken.has(t)) slots.push(new Date(t).toISOString());
  }
  return slots;
}

export interface MonthCell {
  day: Day;
  date: number;
  weekday: number;
}

/** The days of a month (month 0-11) and how many blank cells precede the 1st in a Sunday-first grid. */
export function monthGrid(year: number, month: number): { leading: number; days: MonthCell[] } {
  const first = moment.tz({ year, month, date: 1 }, CENTRE_TZ);
  const count = first.daysInMonth();
  const days: MonthCell[] = [];
  for (let date = 1; date <= count; date += 1) {
    const m = first.clone().date(date);
    days.push({ day: m.format('YYYY-MM-DD'), date, weekday: m.day() });
  }
  return { leading: first.day(), days };
}

/** Year and month (0-11) of a day. */
export function monthOf(day: Day): { year: number; month: number } {
  const [y, m] = day.split('-').map(Number);
  return { year: y, month: m - 1 };
}
