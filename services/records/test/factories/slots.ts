import { dayStatus } from '@crm/contracts';

/**
 * Distinct bookable slots (ISO instants) for one test file. 10:00–11:45Z and 17:00–18:45Z on a
 * weekday are inside the opening hours in Atlantic/Canary both in winter (UTC+0) and in summer
 * (UTC+1), on the same calendar day, so no time-zone library is needed.
 */
export function slotAllocator(daysAhead = 7) {
  const times = [
    '10:00',
    '10:15',
    '10:30',
    '10:45',
    '11:00',
    '11:15',
    '11:30',
    '11:45',
    '17:00',
    '17:15',
    '17:30',
    '17:45',
    '18:00',
    '18:15',
    '18:30',
    '18:45',
  ];
  const day = new Date();
  day.setUTCHours(0, 0, 0, 0);
  day.setUTCDate(day.getUTCDate() + daysAhead);
  let index = 0;
  return {
    next(): string {
      for (;;) {
        const weekday = day.getUTCDay();
        const open = dayStatus(day.toISOString().slice(0, 10)).open;
        if (weekday !== 0 && weekday !== 6 && open && index < times.length) {
          return `${day.toISOString().slice(0, 10)}T${times[index++]}:00.000Z`;
        }
        day.setUTCDate(day.getUTCDate() + 1);
        index = 0;
      }
    },
  };
}
