import moment from 'moment-timezone';
import { CENTRE_TIME_ZONE } from '@crm/contracts';
import { badRequest } from '@crm/server-kit';

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * `from` / `to` of a query as instants: a calendar day is a whole day in the centre's time zone
 * (`from` = its first instant, `to` = the first instant of the next day, exclusive); an instant is
 * taken as given (`to` exclusive).
 */
export function resolveRange(from?: string, to?: string): { from?: Date; to?: Date } {
  const start = from === undefined ? undefined : toInstant(from, false);
  const end = to === undefined ? undefined : toInstant(to, true);
  if (start && end && start.getTime() >= end.getTime()) {
    throw badRequest('La fecha inicial debe ser anterior a la final', [
      { message: 'La fecha inicial debe ser anterior a la final', field: 'from' },
    ]);
  }
  return { ...(start ? { from: start } : {}), ...(end ? { to: end } : {}) };
}

function toInstant(value: string, endOfDay: boolean): Date {
  if (!DAY.test(value)) return new Date(value);
  const day = moment.tz(value, 'YYYY-MM-DD', true, CENTRE_TIME_ZONE).startOf('day');
  return (endOfDay ? day.add(1, 'day') : day).toDate();
}
