import type { ViewField } from '@crm/contracts';
import { computeTotals, computeViewTotals } from '../src';

describe('prices', () => {
  it('reproduces the 10-year driving renewal: 19 + 24.58 + 10 = 53.58 net, 54 gross', () => {
    expect(computeTotals({ base: [19, 24.58, 10], discount: [] })).toEqual({ net: 53.58, tax: 0, gross: 54 });
  });

  it('subtracts every DISCOUNT from the sum of every BASE', () => {
    expect(computeTotals({ base: [19, 10, 10], discount: [5, 2.5] })).toEqual({
      net: 31.5,
      tax: 0,
      gross: 32,
    });
  });

  it('applies a percentage TAX when taxType is "Porcentaje": 21 % of 53.58 is 11.25, gross 64.83 → 65', () => {
    expect(computeTotals({ base: [19, 24.58, 10], discount: [], tax: 21, taxType: 'Porcentaje' })).toEqual({
      net: 53.58,
      tax: 11.25,
      gross: 65,
    });
  });

  it('adds TAX as a flat amount for any other taxType, or none', () => {
    expect(computeTotals({ base: [19], discount: [], tax: 2.4, taxType: 'Fijo' })).toEqual({
      net: 19,
      tax: 2.4,
      gross: 21,
    });
    expect(computeTotals({ base: [19], discount: [], tax: 2.4 })).toEqual({ net: 19, tax: 2.4, gross: 21 });
    expect(computeTotals({ base: [19], discount: [], tax: 21, taxType: 'porcentaje ' })).toEqual({
      net: 19,
      tax: 21,
      gross: 40,
    });
  });

  it('rounds the gross to a whole number, halves up', () => {
    expect(computeTotals({ base: [10.5], discount: [] }).gross).toBe(11);
    expect(computeTotals({ base: [10.49], discount: [] }).gross).toBe(10);
    expect(computeTotals({ base: [], discount: [] })).toEqual({ net: 0, tax: 0, gross: 0 });
  });

  it('totals a form from the amounts of its price fields by type', () => {
    const field = (name: string, type: 'BASE' | 'DISCOUNT' | 'TAX' | 'NET'): ViewField => ({
      name,
      label: name,
      fieldType: 'NUMBER',
      required: false,
      visible: true,
      price: { type },
    });
    const fields = [
      field('fee', 'BASE'),
      field('dgt', 'BASE'),
      field('off', 'DISCOUNT'),
      field('tax', 'TAX'),
      field('net', 'NET'),
    ];
    expect(
      computeViewTotals(fields, { fee: 19, dgt: 24.58, off: 3.58, tax: 10, net: 999 }, 'Porcentaje'),
    ).toEqual({ net: 40, tax: 4, gross: 44 });
    // A field without an amount (not shown) does not count.
    expect(computeViewTotals(fields, { fee: 19 })).toEqual({ net: 19, tax: 0, gross: 19 });
  });
});
