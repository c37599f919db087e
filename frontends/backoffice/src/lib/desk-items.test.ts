import { describe, expect, it } from '@jest/globals';
import type { MetadataEntry } from '@crm/contracts';
import { amountText, priceCents, recordExtraItems } from './desk-items';

const price = (
  name: string,
  label: string,
  value: string | number,
  priceType: MetadataEntry['priceType'],
) => ({
  [name]: { name, label, type: 'NUMBER' as const, value, priceType, currency: 'EUR' },
});

describe('the desk payment proposed from the record', () => {
  it('reads euros as integer cents, without binary noise', () => {
    expect(priceCents(24.58)).toBe(2458);
    expect(priceCents(19)).toBe(1900);
    expect(priceCents('24,58')).toBe(2458);
    expect(priceCents('9.83')).toBe(983);
    expect(priceCents(0.1 + 0.2)).toBe(30);
    expect(priceCents('')).toBeUndefined();
    expect(priceCents('Apto')).toBeUndefined();
    expect(priceCents(null)).toBeUndefined();
    expect(amountText(2458 + 1000 + 1900)).toBe('53,58');
  });

  it('lists the extra price fields and discounts, not the check-up, the totals, the tax or zeros', () => {
    const metadata = {
      result: { name: 'result', label: 'Resultado', type: 'PICKLIST' as const, value: 'Apto' },
      ...price('checkupFee', 'Reconocimiento médico', 19, 'BASE'),
      ...price('dgtFee', 'Tasa DGT según vigencia', 24.58, 'BASE'),
      ...price('dgtManagement', 'Gestión DGT', 10, 'BASE'),
      ...price('extraReport', 'Informe adicional', 0, 'BASE'),
      ...price('discount', 'Descuento', 2.5, 'DISCOUNT'),
      ...price('tax', 'Impuesto (% o importe fijo)', 21, 'TAX'),
      ...price('net', 'Importe neto', 51.08, 'NET'),
      ...price('total', 'Total', 51, 'GROSS'),
    };
    expect(recordExtraItems({ metadata })).toEqual([
      { label: 'Tasa DGT según vigencia', amountCents: 2458 },
      { label: 'Gestión DGT', amountCents: 1000 },
      { label: 'Descuento', amountCents: -250 },
    ]);
  });

  it('proposes nothing without a record or without price fields', () => {
    expect(recordExtraItems(null)).toEqual([]);
    expect(recordExtraItems({ metadata: price('checkupFee', 'Reconocimiento médico', 19, 'BASE') })).toEqual(
      [],
    );
    expect(recordExtraItems({ metadata: {} })).toEqual([]);
  });
});
