import { DEFAULT_COUNTRY_CODE } from '@crm/contracts/src/phone';

/**
 * Phone inputs of SPEC §5: non-digits are stripped; when exactly nine digits are typed the +34
 * prefix is added; a number with its country code is shown grouped as "+NN NNN NNNN…"; only the
 * digits are sent.
 */
export function formatPhoneInput(value: string): string {
  let digits = value.replace(/\D/g, '');
  if (!digits) return '';
  const international = value.trim().startsWith('+');
  if (!international && digits.length < 9) return digits;
  if (!international && digits.length === 9) digits = DEFAULT_COUNTRY_CODE + digits;
  return groupInternational(digits);
}

function groupInternational(digits: string): string {
  const parts = [digits.slice(0, 2), digits.slice(2, 5), digits.slice(5)].filter(Boolean);
  return `+${parts.join(' ')}`;
}

/** What is sent to the server: digits only. */
export const phoneDigits = (value: string): string => value.replace(/\D/g, '');

/** A stored phone (digits with country code, e.g. "34612345678") for display: "+34 612 345678". */
export function displayPhone(stored: string | undefined | null): string {
  if (!stored) return '';
  const digits = phoneDigits(stored);
  return digits.length > 9 ? groupInternational(digits) : digits;
}
