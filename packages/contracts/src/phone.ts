/** Spain's country code, added when exactly nine national digits are given (SPEC §5). */
export const DEFAULT_COUNTRY_CODE = '34';

/**
 * Normalises a phone number to digits only, with the country code: non-digits are stripped, an
 * international `00` prefix becomes nothing, and exactly nine digits get `34` in front.
 * Returns undefined when the result cannot be a phone number (fewer than 9 or more than 15 digits).
 */
export function normalizePhone(input: string): string | undefined {
  let digits = input.replace(/\D/g, '');
  if (digits.startsWith('00')) digits = digits.slice(2);
  if (digits.length === 9) digits = DEFAULT_COUNTRY_CODE + digits;
  return digits.length >= 10 && digits.length <= 15 ? digits : undefined;
}
