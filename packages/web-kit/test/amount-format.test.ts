import { formatAmount, formatNumber } from '../src/centre/format';

/** Intl's no-break spaces would make "27,00 €" differ from what people (and tests) type. */
const NO_BREAK_SPACE = /[\u00a0\u202f]/;

describe('amounts and numbers as Spanish readers write them (es-ES)', () => {
  it('prints amounts with a decimal comma, two decimals and the symbol after a plain space', () => {
    expect(formatAmount(27)).toBe('27,00 €');
    expect(formatAmount(10)).toBe('10,00 €');
    expect(formatAmount(53.58)).toBe('53,58 €');
    expect(formatAmount(0.1 + 0.2)).toBe('0,30 €');
    expect(formatAmount(-3.5)).toBe('-3,50 €');
    expect(NO_BREAK_SPACE.test(formatAmount(19))).toBe(false);
  });

  it('groups thousands with a dot from five digits on, as the RAE does', () => {
    expect(formatAmount(1234.5)).toBe('1234,50 €');
    expect(formatAmount(12345.5)).toBe('12.345,50 €');
    expect(formatNumber(12345.678)).toBe('12.345,68');
  });

  it('rounds to whole units when asked (a GROSS total) and keeps other currencies', () => {
    expect(formatAmount(53.58, 'EUR', 0)).toBe('54 €');
    expect(formatAmount(19, 'USD')).toMatch(/^19,00 US\$$/);
  });

  it('prints other numbers with a decimal comma and no trailing zeros', () => {
    expect(formatNumber(72.5)).toBe('72,5');
    expect(formatNumber(27)).toBe('27');
    expect(formatNumber(1.755)).toBe('1,76');
    expect(formatNumber(0.1 + 0.2)).toBe('0,3');
    expect(NO_BREAK_SPACE.test(formatNumber(123456))).toBe(false);
  });
});
