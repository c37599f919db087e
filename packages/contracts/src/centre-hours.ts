/**
 * The centre's clock and opening hours (docs/product/centre-profile.md#opening-hours), the one definition
 * used by the appointments service (which slots can be booked), the front ends (which slots are offered) and
 * the seed of the centre profile (the hours it shows). No dependencies, so a front end can import it cheaply.
 */
export const CENTRE_TIME_ZONE = 'Atlantic/Canary';
export const SLOT_MINUTES = 15;

/** Opening weekdays as ISO numbers (1 = Monday … 7 = Sunday): Monday to Friday. */
export const OPENING_WEEKDAYS: readonly number[] = [1, 2, 3, 4, 5];

/** Opening sessions as [first slot, end) in minutes after local midnight: 09:00–13:00 and 17:00–20:00. */
export const OPENING_SESSIONS: ReadonlyArray<readonly [number, number]> = [
  [9 * 60, 13 * 60],
  [17 * 60, 20 * 60],
];

/** "09:00" for 540. */
export const minutesToClock = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** Is an ISO weekday (1 = Monday … 7 = Sunday) a working day of the centre? */
export const isOpeningWeekday = (isoWeekday: number): boolean => OPENING_WEEKDAYS.includes(isoWeekday);

/** Is a wall-clock minute of an opening day inside one of the sessions? */
export const isWithinOpeningHours = (minuteOfDay: number): boolean =>
  OPENING_SESSIONS.some(([start, end]) => minuteOfDay >= start && minuteOfDay < end);

/** Every slot start of an opening day, in minutes after local midnight. */
export function slotMinutesOfDay(): number[] {
  const minutes: number[] = [];
  for (const [start, end] of OPENING_SESSIONS)
    for (let minute = start; minute < end; minute += SLOT_MINUTES) minutes.push(minute);
  return minutes;
}

const CENTRE_DATE = new Intl.DateTimeFormat('en-CA', {
  timeZone: CENTRE_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** `YYYY-MM-DD` of an instant at the centre (its calendar day, whatever the server's zone). */
export const centreDayOf = (instant: Date): string => CENTRE_DATE.format(instant);
