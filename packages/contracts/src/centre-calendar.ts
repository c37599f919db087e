/**
 * The days the centre is closed or closes early: the public holidays of Spain and of the Canary
 * Islands (computed for any year, so nobody has to type them in), the local holidays and closures the
 * admin adds to the centre profile, and its shortened days. Shared by the appointments service (what
 * can be booked), the front ends (what is offered) and the back office's editor. No dependencies, so a
 * front end can import it cheaply. Days are local calendar days `YYYY-MM-DD` in Atlantic/Canary.
 */

/** A holiday of the centre's town that the admin adds (e.g. the town's patron saint). */
export interface LocalHoliday {
  date: string;
  name: string;
}

/** The centre is closed from `from` to `to`, both included (holidays, works, …). */
export interface ClosurePeriod {
  from: string;
  to: string;
  reason: string;
}

/** On `date` the centre closes at `closesAt` (`HH:mm`) instead of its usual time. */
export interface ShortenedDay {
  date: string;
  closesAt: string;
  reason?: string;
}

/** The closures part of the centre profile. */
export interface CentreClosures {
  localHolidays: LocalHoliday[];
  closures: ClosurePeriod[];
  shortenedDays: ShortenedDay[];
}

export const NO_CLOSURES: CentreClosures = { localHolidays: [], closures: [], shortenedDays: [] };

export type HolidayScope = 'national' | 'canarias';

/** A holiday worked out from the calendar (never stored, never deleted). */
export interface PublicHoliday {
  date: string;
  name: string;
  scope: HolidayScope;
}

const pad = (value: number) => String(value).padStart(2, '0');
const isoDay = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`;

/**
 * Easter Sunday of a Gregorian year (the "anonymous Gregorian" Computus, Meeus/Jones/Butcher):
 * exact for every year from 1583 on. Returns month (3 or 4) and day.
 */
export function easterSunday(year: number): { month: number; day: number } {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return { month, day };
}

/** `days` days before Easter Sunday, as `YYYY-MM-DD` (calendar arithmetic in UTC: no DST involved). */
function beforeEaster(year: number, days: number): string {
  const { month, day } = easterSunday(year);
  const date = new Date(Date.UTC(year, month - 1, day - days));
  return isoDay(date.getUTCFullYear(), date.getUTCMonth() + 1, date.getUTCDate());
}

/**
 * The national holidays of Spain and the Canary Islands' own of `year`, in date order. Holidays that
 * fall on a Sunday are listed on their date (a regional decree may move one to Monday: the admin adds
 * that Monday as a local holiday).
 */
export function publicHolidays(year: number): PublicHoliday[] {
  const national = (month: number, day: number, name: string): PublicHoliday => ({
    date: isoDay(year, month, day),
    name,
    scope: 'national',
  });
  const holidays: PublicHoliday[] = [
    national(1, 1, 'Año Nuevo'),
    national(1, 6, 'Epifanía del Señor'),
    { date: beforeEaster(year, 3), name: 'Jueves Santo', scope: 'canarias' },
    { date: beforeEaster(year, 2), name: 'Viernes Santo', scope: 'national' },
    national(5, 1, 'Fiesta del Trabajo'),
    { date: isoDay(year, 5, 30), name: 'Día de Canarias', scope: 'canarias' },
    national(8, 15, 'Asunción de la Virgen'),
    national(10, 12, 'Fiesta Nacional de España'),
    national(11, 1, 'Todos los Santos'),
    national(12, 6, 'Día de la Constitución Española'),
    national(12, 8, 'Inmaculada Concepción'),
    national(12, 25, 'Natividad del Señor'),
  ];
  return holidays.sort((x, y) => x.date.localeCompare(y.date));
}

const clockMinutes = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/** What a day is for the centre, apart from its weekday: closed (and why), shortened, or as usual. */
export type DayStatus =
  | { open: false; reason: string }
  | { open: true; closesAt?: string; closesAtMinute?: number; reason?: string };

/** Is the centre closed on `day`, or does it close early? (Weekends are the opening hours' concern.) */
export function dayStatus(day: string, closures: CentreClosures = NO_CLOSURES): DayStatus {
  const holiday = publicHolidays(Number(day.slice(0, 4))).find((entry) => entry.date === day);
  if (holiday) return { open: false, reason: holiday.name };
  const local = closures.localHolidays.find((entry) => entry.date === day);
  if (local) return { open: false, reason: local.name };
  const closure = closures.closures.find((entry) => entry.from <= day && day <= entry.to);
  if (closure) return { open: false, reason: closure.reason };
  const shortened = closures.shortenedDays.find((entry) => entry.date === day);
  if (shortened)
    return {
      open: true,
      closesAt: shortened.closesAt,
      closesAtMinute: clockMinutes(shortened.closesAt),
      ...(shortened.reason ? { reason: shortened.reason } : {}),
    };
  return { open: true };
}

/**
 * Is a slot starting `minuteOfDay` (wall clock) and lasting `slotMinutes` inside the day's hours as
 * far as closures go? A shortened day's last slot ends at its closing time.
 */
export function slotOpenOnDay(status: DayStatus, minuteOfDay: number, slotMinutes: number): boolean {
  if (!status.open) return false;
  return status.closesAtMinute === undefined || minuteOfDay + slotMinutes <= status.closesAtMinute;
}
