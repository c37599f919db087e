import { CENTRE_TIME_ZONE, dayStatus, type CentreClosures } from '@crm/contracts';

/** The longest a kiosk session lasts (docs/product/kiosk.md#session). */
export const KIOSK_SESSION_MAX_SECONDS = 12 * 3600;

/** What the centre profile says about its days: the opening periods and the closures. */
export interface CentreDays {
  openingHours: ReadonlyArray<{ days: readonly number[]; from: string; to: string }>;
  closures: CentreClosures;
}

const WALL_CLOCK = new Intl.DateTimeFormat('en-GB', {
  timeZone: CENTRE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  weekday: 'short',
});
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** The centre's wall clock at an instant: its day (`YYYY-MM-DD`), ISO weekday and UTC offset. */
function wallClock(instant: Date) {
  const parts = Object.fromEntries(WALL_CLOCK.formatToParts(instant).map((part) => [part.type, part.value]));
  const day = `${parts.year}-${parts.month}-${parts.day}`;
  const wallMs = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  return {
    day,
    isoWeekday: WEEKDAYS.indexOf(parts.weekday!) + 1,
    offsetMs: wallMs - Math.floor(instant.getTime() / 1000) * 1000,
  };
}

const minutesOf = (clock: string) => Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));

/**
 * The instant the centre closes on the local day of `now`: the end of the day's last opening period,
 * or a shortened day's earlier time; undefined on a day it does not open (weekend, holiday, closure).
 */
export function closingTime(now: Date, centre: CentreDays): Date | undefined {
  const { day, isoWeekday, offsetMs } = wallClock(now);
  const status = dayStatus(day, centre.closures);
  if (!status.open) return undefined;
  const ends = centre.openingHours.filter((p) => p.days.includes(isoWeekday)).map((p) => minutesOf(p.to));
  if (ends.length === 0) return undefined;
  let closes = Math.max(...ends);
  if (status.closesAtMinute !== undefined) closes = Math.min(closes, status.closesAtMinute);
  const midnightUtc = Date.UTC(
    Number(day.slice(0, 4)),
    Number(day.slice(5, 7)) - 1,
    Number(day.slice(8, 10)),
  );
  // The offset of the closing instant itself (a daylight-saving change happens at night, before opening).
  const guess = new Date(midnightUtc + closes * 60_000 - offsetMs);
  return new Date(midnightUtc + closes * 60_000 - wallClock(guess).offsetMs);
}

/**
 * How long a kiosk session signed in at `now` lasts, in seconds: until today's closing time, and
 * never more than 12 hours. Signed in when the centre does not open again today (after closing, at a
 * weekend or on a holiday), it gets the 12 hours: staff setting a terminal up out of hours are not
 * signed out at once, and the session still ends before the next day's closing.
 */
export function kioskSessionSeconds(now: Date, centre: CentreDays): number {
  const closes = closingTime(now, centre);
  const untilClosing = closes ? Math.floor((closes.getTime() - now.getTime()) / 1000) : 0;
  return untilClosing > 0 ? Math.min(untilClosing, KIOSK_SESSION_MAX_SECONDS) : KIOSK_SESSION_MAX_SECONDS;
}
