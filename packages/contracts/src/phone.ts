/**
 * The one phone rule of the product (docs/product/README.md#phone-numbers), shared by the server's validation
 * and every phone input and display of the front ends (through `@crm/web-kit`'s phone module):
 *
 * - stored and sent as digits only, with the country code: "+34 699 111 222", "0034 699 111 222",
 *   "699 111 222" and "699111222" are all `34699111222`; "+44 7700 900123" is `447700900123`;
 * - a number typed with "+" or "00" keeps its own country code; exactly nine digits without one are
 *   a Spanish number and get 34; ten to fifteen digits without one already carry their code (that is
 *   how numbers are stored);
 * - shown as "+34 699 111 222" (other countries: "+CC" and the national digits in groups).
 */

/** Spain's country code, added when exactly nine national digits are given. */
export const DEFAULT_COUNTRY_CODE = '34';

/** Fewest and most digits a phone may have as typed (E.164 allows at most 15 with the country code). */
export const PHONE_MIN_DIGITS = 9;
export const PHONE_MAX_DIGITS = 15;

/** What a person sees when a phone is refused (server field error `phone`). */
export const PHONE_INVALID_MESSAGE = 'El teléfono no es válido';

/** Spanish national numbers have nine digits and start with 5–9 (mobile 6/7, fixed 8/9, others 5). */
const SPANISH_NATIONAL = /^[5-9]\d{8}$/;

/**
 * ITU country codes of one and two digits; every other code has three. The first digits of a
 * number with its country code therefore tell where the code ends.
 */
const SHORT_COUNTRY_CODES = new Set(
  (
    '1 7 20 27 30 31 32 33 34 36 39 40 41 43 44 45 46 47 48 49 51 52 53 54 55 56 57 58 ' +
    '60 61 62 63 64 65 66 81 82 84 86 90 91 92 93 94 95 98'
  ).split(' '),
);

interface TypedPhone {
  /** The digits, without an international "00" prefix. */
  digits: string;
  /** Typed with "+" or "00": the digits start with the country code. */
  international: boolean;
}

function readTyped(input: string): TypedPhone {
  const trimmed = input.trim();
  const digits = trimmed.replace(/\D/g, '');
  if (trimmed.startsWith('+')) return { digits, international: true };
  if (digits.startsWith('00')) return { digits: digits.slice(2), international: true };
  return { digits, international: false };
}

/** The country code at the start of digits that carry one (may be incomplete while typing). */
function countryCodeOf(digits: string): string {
  for (const length of [1, 2]) {
    const code = digits.slice(0, length);
    if (SHORT_COUNTRY_CODES.has(code)) return code;
  }
  return digits.slice(0, 3);
}

/**
 * Normalises a phone number to what is stored and sent: digits only, with the country code.
 * Returns undefined when it cannot be a phone number: fewer than 9 or more than 15 digits, a
 * nine-digit number that is not Spanish, a code starting with 0, or a Spanish (+34) number whose
 * national part is not nine digits.
 */
export function normalizePhone(input: string): string | undefined {
  const typed = readTyped(input);
  const count = typed.digits.length;
  if (count < PHONE_MIN_DIGITS || count > PHONE_MAX_DIGITS) return undefined;
  let digits = typed.digits;
  if (!typed.international && count === 9) {
    if (!SPANISH_NATIONAL.test(digits)) return undefined;
    digits = DEFAULT_COUNTRY_CODE + digits;
  }
  if (digits.length < 10 || digits.startsWith('0')) return undefined;
  if (digits.startsWith(DEFAULT_COUNTRY_CODE) && !SPANISH_NATIONAL.test(digits.slice(2))) return undefined;
  return digits;
}

/** Splits `digits` into groups of the given sizes; the last group takes whatever is left. */
function groups(digits: string, sizes: readonly number[]): string[] {
  const parts: string[] = [];
  let rest = digits;
  for (const size of sizes) {
    if (!rest) break;
    parts.push(rest.slice(0, size));
    rest = rest.slice(size);
  }
  if (rest) {
    if (parts.length > 0) parts[parts.length - 1] += rest;
    else parts.push(rest);
  }
  return parts;
}

/** Common national layouts by length, for countries without a layout of their own. */
const LAYOUT_BY_LENGTH: Record<number, readonly number[]> = {
  6: [3, 3],
  7: [3, 4],
  8: [4, 4],
  9: [3, 3, 3],
  10: [3, 3, 4],
  11: [3, 4, 4],
  12: [4, 4, 4],
  13: [3, 3, 3, 4],
  14: [3, 3, 4, 4],
};

function nationalLayout(code: string, national: string): readonly number[] {
  if (code === DEFAULT_COUNTRY_CODE) return [3, 3, 3, 3, 3];
  if (code === '44') return [4, 6]; // "+44 7700 900123"
  return LAYOUT_BY_LENGTH[national.length] ?? [3, 3, 3, 3, 3];
}

/** "+CC NNN NNN NNN" for digits that start with their country code (complete or still being typed). */
function formatInternational(digits: string): string {
  if (!digits) return '+';
  const code = countryCodeOf(digits);
  const national = digits.slice(code.length);
  if (!national) return `+${code}`;
  return [`+${code}`, ...groups(national, nationalLayout(code, national))].join(' ');
}

/**
 * A stored (or any typed) phone for display: "34699111222" → "+34 699 111 222",
 * "447700900123" → "+44 7700 900123". Something that is not a phone is shown as its digits.
 */
export function formatPhone(value: string | null | undefined): string {
  if (!value) return '';
  const normalized = normalizePhone(value);
  if (normalized) return formatInternational(normalized);
  const { digits } = readTyped(value);
  // A stored value that no longer passes the rule (older data) still shows with its code.
  return digits.length >= 10 && !digits.startsWith('0') ? formatInternational(digits) : digits;
}

/**
 * The text of a phone input after each keystroke or paste: non-digits are stripped, a
 * leading "+" or "00" is kept as "+" with the country code after it, nine digits of a Spanish number
 * get "+34", and ten or more digits are shown with their own code. The result read again gives
 * itself ("+34 699 111 222" stays as it is), so typing character by character never adds a second
 * prefix; `normalizePhone` of the result is what is sent.
 */
export function formatPhoneInput(value: string): string {
  const typed = readTyped(value);
  if (typed.international) return formatInternational(typed.digits);
  const { digits } = typed;
  if (digits === '0') return digits; // maybe the start of "00"
  if (digits.length === 9 && SPANISH_NATIONAL.test(digits)) {
    return formatInternational(DEFAULT_COUNTRY_CODE + digits);
  }
  if (digits.length >= 10 && !digits.startsWith('0')) return formatInternational(digits);
  return groups(digits, [3, 3, 3, 3, 3]).join(' ');
}

/** A stored number without its country code ("34699111222" → "699111222"): how people type it. */
export const nationalDigitsOf = (stored: string): string => stored.slice(countryCodeOf(stored).length);
