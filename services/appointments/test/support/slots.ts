import moment from 'moment-timezone';
import { CENTRE_TIME_ZONE, dayStatus } from '@crm/contracts';

/** An instant given as Atlantic/Canary wall-clock time, e.g. `canary('2027-03-29 09:00')`. */
export const canary = (wallClock: string): string =>
  moment.tz(wallClock, 'YYYY-MM-DD HH:mm', CENTRE_TIME_ZONE).toISOString();

/** The last Sunday of a month (`month` 1–12) in Atlantic/Canary: when its clocks change. */
export function lastSunday(year: number, month: number): moment.Moment {
  const day = moment
    .tz({ year, month: month - 1, day: 1 }, CENTRE_TIME_ZONE)
    .endOf('month')
    .startOf('day');
  while (day.isoWeekday() !== 7) day.subtract(1, 'day');
  return day;
}

/** Next year's clock changes, with the working days just before and after each (always in the future). */
export function dstWeekdays() {
  const year = new Date().getUTCFullYear() + 1;
  const format = (day: moment.Moment) => day.format('YYYY-MM-DD');
  // The working day nearest the change on that side: Holy Week can fall on the days before it.
  const working = (day: moment.Moment, step: 1 | -1) => {
    while (!dayStatus(format(day)).open || day.isoWeekday() > 5) day.add(step, 'day');
    return day;
  };
  const march = lastSunday(year, 3);
  const october = lastSunday(year, 10);
  return {
    /** The last working day before summer time starts (UTC+0) and the first after (UTC+1). */
    beforeSummer: format(working(march.clone().subtract(2, 'days'), -1)),
    inSummer: format(working(march.clone().add(1, 'day'), 1)),
    /** The last working day before summer time ends (UTC+1) and the first after (UTC+0). */
    endOfSummer: format(working(october.clone().subtract(2, 'days'), -1)),
    inWinter: format(working(october.clone().add(1, 'day'), 1)),
  };
}

/** A weekday/weekend local date some weeks ahead (a working day, for Monday to Friday). */
export function nextLocalDay(isoWeekday: number, weeksAhead = 2): string {
  const day = moment.tz(CENTRE_TIME_ZONE).add(weeksAhead, 'weeks').startOf('day');
  // Never a public holiday: the centre is closed then.
  while (day.isoWeekday() !== isoWeekday || !dayStatus(day.format('YYYY-MM-DD')).open) day.add(1, 'day');
  return day.format('YYYY-MM-DD');
}
