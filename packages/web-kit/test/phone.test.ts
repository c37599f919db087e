import { displayPhone, formatPhoneInput, phoneDigits } from '../src/phone/phone';

describe('phone inputs (SPEC §5)', () => {
  it('keeps fewer than nine typed digits as they are', () => {
    expect(formatPhoneInput('6123')).toBe('6123');
  });

  it('adds +34 when exactly nine digits are typed and groups as "+NN NNN N…"', () => {
    expect(formatPhoneInput('612345678')).toBe('+34 612 345678');
    expect(formatPhoneInput('612 34 56 78')).toBe('+34 612 345678');
  });

  it('strips anything that is not a digit', () => {
    expect(formatPhoneInput('6a1-2(3)4')).toBe('61234');
  });

  it('keeps a number that already has its country code', () => {
    expect(formatPhoneInput('+34 612 3456789')).toBe('+34 612 3456789');
    expect(formatPhoneInput('+34 612 3456')).toBe('+34 612 3456');
    expect(formatPhoneInput('4915112345678')).toBe('+49 151 12345678');
  });

  it('sends digits only', () => {
    expect(phoneDigits('+34 612 345678')).toBe('34612345678');
  });

  it('shows a stored number grouped', () => {
    expect(displayPhone('34612345678')).toBe('+34 612 345678');
    expect(displayPhone(undefined)).toBe('');
  });
});
