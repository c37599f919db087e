import moment from 'moment-timezone';
import { CENTRE_TIME_ZONE } from '@crm/contracts';
import { upcomingSlots } from '../../src/domain/slot-rules';

/**
 * Hands out distinct bookable slots (ISO strings), starting `daysAhead` days from now, so tests in
 * one file never compete for a slot unless they mean to.
 */
export function slotAllocator(daysAhead = 2) {
  const slots = upcomingSlots(new Date(Date.now() + daysAhead * 86_400_000));
  return { next: (): string => slots.next().value!.toISOString() };
}

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
  const march = lastSunday(year, 3);
  const october = lastSunday(year, 10);
  return {
    /** Friday before summer time starts (UTC+0) and Monday after (UTC+1). */
    beforeSummer: format(march.clone().subtract(2, 'days')),
    inSummer: format(march.clone().add(1, 'day')),
    /** Friday before summer time ends (UTC+1) and Monday after (UTC+0). */
    endOfSummer: format(october.clone().subtract(2, 'days')),
    inWinter: format(october.clone().add(1, 'day')),
  };
}

/** A weekday/weekend local date some weeks ahead. */
export function nextLocalDay(isoWeekday: number, weeksAhead = 2): string {
  const day = moment.tz(CENTRE_TIME_ZONE).add(weeksAhead, 'weeks').startOf('day');
  while (day.isoWeekday() !== isoWeekday) day.add(1, 'day');
  return day.format('YYYY-MM-DD');
}
