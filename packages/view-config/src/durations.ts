/**
 * Relative durations of date-parsed fields (docs/product/clinical-records.md#relative-durations): "10 años",
 * "6 meses", "2 semanas", "3 días" become an absolute date counted from the appointment's date; on editing, a
 * stored date maps back to the option whose date lies within 15 days of it.
 */

export type DurationUnit = 'years' | 'months' | 'weeks' | 'days';

export interface RelativeDuration {
  amount: number;
  unit: DurationUnit;
}

export const DURATION_MATCH_TOLERANCE_DAYS = 15;

const DAY_MS = 86_400_000;

/**
 * A number followed by año(s), mes(es), semana(s) or día(s), in any case, with or without the
 * accent; anything after the unit must be separated from it ("10 años (hasta los 65)").
 */
const DURATION = /^\s*(\d{1,3})\s*(años?|anios?|mes(?:es)?|semanas?|d[ií]as?)(?=$|[\s,.;:()/-])/iu;

function unitOf(word: string): DurationUnit {
  const lower = word.toLowerCase();
  if (lower.startsWith('a')) return 'years';
  if (lower.startsWith('m')) return 'months';
  if (lower.startsWith('s')) return 'weeks';
  return 'days';
}

export function parseRelativeDuration(text: unknown): RelativeDuration | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DURATION.exec(text);
  if (!match) return undefined;
  const amount = Number(match[1]);
  if (amount <= 0) return undefined;
  return { amount, unit: unitOf(match[2]!) };
}

const daysInMonth = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate();

/** Calendar months in UTC, keeping the time of day; the 31st (or 29 February) clamps to the month's last day. */
function addMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  const targetYear = year + Math.floor(month / 12);
  const targetMonth = ((month % 12) + 12) % 12;
  const day = Math.min(from.getUTCDate(), daysInMonth(targetYear, targetMonth));
  return new Date(
    Date.UTC(
      targetYear,
      targetMonth,
      day,
      from.getUTCHours(),
      from.getUTCMinutes(),
      from.getUTCSeconds(),
      from.getUTCMilliseconds(),
    ),
  );
}

export function addDuration(from: Date, { amount, unit }: RelativeDuration): Date {
  switch (unit) {
    case 'years':
      return addMonths(from, amount * 12);
    case 'months':
      return addMonths(from, amount);
    case 'weeks':
      return new Date(from.getTime() + amount * 7 * DAY_MS);
    case 'days':
      return new Date(from.getTime() + amount * DAY_MS);
  }
}

/** "10 años" counted from `from`; undefined when the text is not a relative duration. */
export function relativeDurationToDate(text: unknown, from: Date): Date | undefined {
  const duration = parseRelativeDuration(text);
  return duration ? addDuration(from, duration) : undefined;
}

/**
 * Which of the duration texts a stored date stands for: the one whose date (counted from `from`) is
 * nearest to `date`, if within `toleranceDays`. Undefined when none is close enough.
 */
export function matchDurationOption(
  date: Date,
  from: Date,
  candidates: readonly string[],
  toleranceDays = DURATION_MATCH_TOLERANCE_DAYS,
): string | undefined {
  let best: { candidate: string; distance: number } | undefined;
  for (const candidate of candidates) {
    const target = relativeDurationToDate(candidate, from);
    if (!target) continue;
    const distance = Math.abs(target.getTime() - date.getTime());
    if (distance <= toleranceDays * DAY_MS && (!best || distance < best.distance))
      best = { candidate, distance };
  }
  return best?.candidate;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:\d{2})$/;

/** `YYYY-MM-DD` as UTC midnight, if that day exists (2026-02-30 does not). */
function calendarDate(text: string): Date | undefined {
  const match = DATE_ONLY.exec(text);
  if (!match) return undefined;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
    ? date
    : undefined;
}

/** An ISO 8601 date (`2026-05-01`, read as UTC midnight) or instant with a zone; undefined otherwise. */
export function parseIsoDate(value: unknown): Date | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) return calendarDate(text);
  // The calendar day is checked on its own: `new Date('2026-02-30T10:00Z')` rolls over to March.
  if (!DATE_TIME.test(text) || !calendarDate(text.slice(0, 10))) return undefined;
  const date = new Date(text);
  return Number.isNaN(date.getTime()) ? undefined : date;
}
