import moment from 'moment-timezone';
import { ROOM_SLOT_RULES } from '@crm/contracts';

/**
 * The room-slot rules (docs/product/rooms.md#room-slots), in the centre's time zone: a slot is an hourly
 * instant on a weekday, starting between 08:00 and 17:00 local time (08:00 plus a 10-hour window), in the
 * future.
 */
const { timeZone, firstHour, hoursPerDay } = ROOM_SLOT_RULES;
const lastHour = firstHour + hoursPerDay - 1;

/** How far ahead a slot may be reserved; stops a typo (or a bot) from holding slots years ahead. */
export const MAX_DAYS_AHEAD = 365;

export type SlotProblem = 'not-on-the-hour' | 'weekend' | 'outside-hours' | 'past' | 'too-far' | 'duplicate';

const pad = (hour: number) => String(hour).padStart(2, '0');

export const SLOT_PROBLEM_MESSAGES: Record<SlotProblem, string> = {
  'not-on-the-hour': 'Los horarios de consulta empiezan a la hora en punto',
  weekend: 'Las consultas solo se reservan de lunes a viernes',
  'outside-hours': `Los horarios de consulta van de ${pad(firstHour)}:00 a ${pad(lastHour)}:00 (hora de Canarias)`,
  past: 'No se puede reservar un horario que ya ha pasado',
  'too-far': `Solo se puede reservar con hasta ${MAX_DAYS_AHEAD} días de antelación`,
  duplicate: 'Has seleccionado el mismo horario más de una vez',
};

/** What is wrong with one slot, or undefined when it may be reserved at `now`. */
export function slotProblem(instant: Date, now: Date): SlotProblem | undefined {
  const local = moment.tz(instant, timeZone);
  if (local.minutes() !== 0 || local.seconds() !== 0 || local.milliseconds() !== 0) return 'not-on-the-hour';
  if (local.isoWeekday() > 5) return 'weekend';
  if (local.hours() < firstHour || local.hours() > lastHour) return 'outside-hours';
  if (instant.getTime() <= now.getTime()) return 'past';
  if (instant.getTime() > now.getTime() + MAX_DAYS_AHEAD * 86_400_000) return 'too-far';
  return undefined;
}

export interface SlotIssue {
  instant: Date;
  problem: SlotProblem;
}

/** Every problem of a requested set of slots: each slot's own rule, plus repeats within the set. */
export function findSlotIssues(instants: readonly Date[], now: Date): SlotIssue[] {
  const seen = new Set<number>();
  const issues: SlotIssue[] = [];
  for (const instant of instants) {
    const problem = seen.has(instant.getTime()) ? 'duplicate' : slotProblem(instant, now);
    seen.add(instant.getTime());
    if (problem) issues.push({ instant, problem });
  }
  return issues;
}

/** "dd/MM/yyyy HH:mm" in the centre's time zone, for messages people read. */
export function formatLocal(instant: Date): string {
  return moment.tz(instant, timeZone).format('DD/MM/YYYY HH:mm');
}

/** The slots of a local day ("YYYY-MM-DD"): 08:00 … 17:00, or none on a weekend. */
export function daySlots(day: string): Date[] {
  const start = moment.tz(day, 'YYYY-MM-DD', true, timeZone);
  if (!start.isValid()) throw new Error(`not a day: ${day}`);
  if (start.isoWeekday() > 5) return [];
  return Array.from({ length: hoursPerDay }, (_, i) =>
    start
      .clone()
      .hours(firstHour + i)
      .toDate(),
  );
}
