/** Numbers as the forms type them: `19`, `"19"`, `"24.58"` or the Spanish `"24,58"`. */

export type ParsedNumber = { kind: 'empty' } | { kind: 'number'; value: number } | { kind: 'invalid' };

const NUMERIC_TEXT = /^[-+]?(?:\d+(?:[.,]\d+)?|[.,]\d+)$/;

/** Strict reading (server side): empty, a number, or not a number at all. */
export function parseNumber(value: unknown): ParsedNumber {
  if (value === undefined || value === null) return { kind: 'empty' };
  if (typeof value === 'number')
    return Number.isFinite(value) ? { kind: 'number', value } : { kind: 'invalid' };
  if (typeof value !== 'string') return { kind: 'invalid' };
  const text = value.trim();
  if (text === '') return { kind: 'empty' };
  if (!NUMERIC_TEXT.test(text)) return { kind: 'invalid' };
  const parsed = Number(text.replace(',', '.'));
  return Number.isFinite(parsed) ? { kind: 'number', value: parsed } : { kind: 'invalid' };
}

/** Number and price fields coerce to numbers, fallback 0 (what the form shows and sends). */
export function coerceNumber(value: unknown): number {
  const parsed = parseNumber(value);
  return parsed.kind === 'number' ? parsed.value : 0;
}

/** Money in cents precision, without binary noise (19 + 24.58 + 10 is 53.58, not 53.580000000000005). */
export function roundCents(value: number): number {
  const rounded = Math.round((Math.abs(value) + Number.EPSILON) * 100) / 100;
  return value < 0 ? -rounded : rounded;
}
