import { formatPhone, formatPhoneInput, normalizePhone } from '../src/phone';
import { phoneField } from '../src/api/fields';

/** What a phone input shows after typing `text` one character at a time, as the browser does. */
function typeKeyByKey(text: string): string {
  let shown = '';
  for (const character of text) shown = formatPhoneInput(shown + character);
  return shown;
}

describe('the phone rule', () => {
  const spanish = ['+34 699 111 222', '0034 699 111 222', '699 111 222', '699111222'];

  it.each(spanish)('stores "%s" as 34699111222 and shows it as "+34 699 111 222"', (typed) => {
    expect(normalizePhone(typed)).toBe('34699111222');
    expect(formatPhone(typed)).toBe('+34 699 111 222');
    expect(formatPhoneInput(typed)).toBe('+34 699 111 222');
  });

  it.each(spanish)('never adds a second prefix while "%s" is typed key by key', (typed) => {
    expect(typeKeyByKey(typed)).toBe('+34 699 111 222');
    expect(normalizePhone(typeKeyByKey(typed))).toBe('34699111222');
  });

  it('keeps a foreign number with its own country code', () => {
    expect(normalizePhone('+44 7700 900123')).toBe('447700900123');
    expect(normalizePhone('0044 7700 900123')).toBe('447700900123');
    expect(formatPhone('447700900123')).toBe('+44 7700 900123');
    expect(typeKeyByKey('+44 7700 900123')).toBe('+44 7700 900123');
    expect(formatPhone('4915112345678')).toBe('+49 151 1234 5678');
    expect(formatPhone('15551234567')).toBe('+1 555 123 4567');
  });

  it('refuses fewer than 9 and more than 15 digits', () => {
    expect(normalizePhone('12345')).toBeUndefined();
    expect(normalizePhone('69911122')).toBeUndefined(); // 8 digits
    expect(normalizePhone('+44 7700 9001234567')).toBeUndefined(); // 16 digits
    expect(normalizePhone('4477009001234567')).toBeUndefined(); // 16 digits
    expect(normalizePhone('447700900123456')).toBe('447700900123456'); // 15 digits
  });

  it('refuses a Spanish number whose national part is not nine digits, and a code starting with 0', () => {
    expect(normalizePhone('+34 699 111 2223')).toBeUndefined();
    expect(normalizePhone('+34 699 111 22')).toBeUndefined();
    expect(normalizePhone('3434699111222')).toBeUndefined(); // the old double prefix
    expect(normalizePhone('+0699111222')).toBeUndefined();
    expect(normalizePhone('123456789')).toBeUndefined(); // nine digits, but not a Spanish number
  });

  it('reads stored digits (with their code) back as the same number', () => {
    expect(normalizePhone('34699111222')).toBe('34699111222');
    expect(typeKeyByKey('34699111222')).toBe('+34 699 111 222');
    expect(normalizePhone('447700900123')).toBe('447700900123');
  });

  it('formats as typed: digits grouped, a leading "+" or "00" kept as "+", nothing else', () => {
    expect(formatPhoneInput('')).toBe('');
    expect(formatPhoneInput('+')).toBe('+');
    expect(formatPhoneInput('0')).toBe('0');
    expect(formatPhoneInput('00')).toBe('+');
    expect(formatPhoneInput('+34 ')).toBe('+34');
    expect(formatPhoneInput('6a1-2(3)4')).toBe('612 34');
    expect(formatPhoneInput('69911122')).toBe('699 111 22');
    // Deleting from the end never changes what is left.
    expect(formatPhoneInput('+34 699 111 22')).toBe('+34 699 111 22');
    expect(formatPhoneInput('+34 6')).toBe('+34 6');
  });

  it('shows what it shows again unchanged (typing on never re-formats the start)', () => {
    for (const typed of [
      '+34 699 111 222',
      '0034 6991',
      '6991',
      '+44 7700 900123',
      '34699',
      '+351 912 345 678',
    ]) {
      const shown = formatPhoneInput(typed);
      expect(formatPhoneInput(shown)).toBe(shown);
    }
  });

  it('shows stored values, and nothing for none', () => {
    expect(formatPhone('34612345678')).toBe('+34 612 345 678');
    expect(formatPhone('612345678')).toBe('+34 612 345 678');
    expect(formatPhone('34928123456')).toBe('+34 928 123 456');
    expect(formatPhone(undefined)).toBe('');
    expect(formatPhone(null)).toBe('');
    expect(formatPhone('')).toBe('');
  });
});

describe('phoneField (server validation)', () => {
  it.each(['+34 699 111 222', '0034 699 111 222', '699 111 222', '699111222'])(
    'parses "%s" to 34699111222',
    (typed) => {
      expect(phoneField.parse(typed)).toBe('34699111222');
    },
  );

  it('keeps "+44 7700 900123" as 447700900123', () => {
    expect(phoneField.parse('+44 7700 900123')).toBe('447700900123');
  });

  it.each(['12345', '61234567', '1234567890123456', '+34 699 111 2223'])(
    'refuses "%s" with a Spanish message',
    (typed) => {
      const result = phoneField.safeParse(typed);
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual(['El teléfono no es válido']);
    },
  );

  it('asks for a missing phone', () => {
    expect(phoneField.safeParse('').error?.issues[0]?.message).toBe('El teléfono es obligatorio');
    expect(phoneField.safeParse(undefined).error?.issues[0]?.message).toBe('El teléfono es obligatorio');
  });
});
