import * as rule from '@crm/contracts/phone';
import { displayPhone, formatPhoneInput, phoneDigits } from '../src/phone/phone';

const typeKeyByKey = (text: string) =>
  [...text].reduce((shown, character) => formatPhoneInput(shown + character), '');

describe('phone inputs — the contracts rule, as the front ends use it', () => {
  it('keeps fewer than nine typed digits, grouped', () => {
    expect(formatPhoneInput('6123')).toBe('612 3');
  });

  it('adds +34 when the nine digits of a Spanish number are typed', () => {
    expect(formatPhoneInput('612345678')).toBe('+34 612 345 678');
    expect(formatPhoneInput('612 34 56 78')).toBe('+34 612 345 678');
  });

  it.each(['+34 699 111 222', '0034 699 111 222', '699 111 222', '699111222'])(
    'shows "+34 699 111 222" after "%s" is typed key by key, and sends 34699111222',
    (typed) => {
      const shown = typeKeyByKey(typed);
      expect(shown).toBe('+34 699 111 222');
      expect(phoneDigits(shown)).toBe('34699111222');
    },
  );

  it('keeps a foreign number with its code', () => {
    expect(typeKeyByKey('+44 7700 900123')).toBe('+44 7700 900123');
    expect(phoneDigits('+44 7700 900123')).toBe('447700900123');
  });

  it('strips anything that is not a digit', () => {
    expect(formatPhoneInput('6a1-2(3)4')).toBe('612 34');
  });

  it('sends the stored form, or the bare digits of something that is not a phone', () => {
    expect(phoneDigits('+34 612 345 678')).toBe('34612345678');
    expect(phoneDigits('0034 612 345 678')).toBe('34612345678');
    expect(phoneDigits('123 45')).toBe('12345');
  });

  it('shows a stored number grouped', () => {
    expect(displayPhone('34612345678')).toBe('+34 612 345 678');
    expect(displayPhone('447700900123')).toBe('+44 7700 900123');
    expect(displayPhone(undefined)).toBe('');
    expect(displayPhone(null)).toBe('');
  });

  it('is the contracts rule, not a copy of it', () => {
    for (const value of ['699111222', '+44 7700 900123', '0034 6', '12', '']) {
      expect(formatPhoneInput(value)).toBe(rule.formatPhoneInput(value));
      expect(displayPhone(value)).toBe(rule.formatPhone(value));
    }
  });
});
