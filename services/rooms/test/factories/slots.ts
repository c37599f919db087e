import moment from 'moment-timezone';
import { ROOM_SLOT_RULES } from '@crm/contracts';
import { daySlots } from '../../src/domain/room-slots';

const { timeZone } = ROOM_SLOT_RULES;
let daysUsed = 0;

/**
 * A weekday ("YYYY-MM-DD", Canary time) at least a week ahead that no earlier call in this test file
 * returned, so every test reserves slots nobody else in the file touches.
 */
export function freshWeekday(): string {
  for (;;) {
    daysUsed++;
    const day = moment
      .tz(timeZone)
      .startOf('day')
      .add(7 + daysUsed, 'days');
    if (day.isoWeekday() <= 5) return day.format('YYYY-MM-DD');
  }
}

/** The next Saturday at least a week ahead. */
export function comingSaturday(): string {
  const day = moment.tz(timeZone).startOf('day').add(7, 'days');
  return day.add((6 - day.isoWeekday() + 7) % 7, 'days').format('YYYY-MM-DD');
}

/** The most recent weekday before today. */
export function pastWeekday(): string {
  const day = moment.tz(timeZone).startOf('day').subtract(1, 'day');
  while (day.isoWeekday() > 5) day.subtract(1, 'day');
  return day.format('YYYY-MM-DD');
}

/** The instant of `day` at `hour:minute` Canary time, as the front end sends it (ISO, UTC). */
export function localSlot(day: string, hour: number, minute = 0): string {
  return moment.tz(`${day} ${hour}:${minute}`, 'YYYY-MM-DD H:m', true, timeZone).toISOString();
}

/** Every bookable slot of a weekday (08:00 … 17:00 local), as ISO strings. */
export const slotsOf = (day: string): string[] => daySlots(day).map((slot) => slot.toISOString());
