import { describe, expect, it } from '@jest/globals';
import type { RecordView } from '@crm/contracts';
import { isRecordId, metadataCellText, metadataColumns } from './record-cells';

const record = (metadata: RecordView['metadata']) => ({ metadata }) as RecordView;

describe('record list cells', () => {
  it('takes one column per metadata field of the first record, labelled, in order', () => {
    expect(
      metadataColumns([
        record({
          weight: { name: 'weight', label: 'Peso (kg)', type: 'NUMBER', value: 72.5 },
          total: { name: 'total', label: 'Total', type: 'NUMBER', value: 54, priceType: 'GROSS' },
        }),
        record({ other: { name: 'other', label: 'Otro', type: 'TEXT', value: 'x' } }),
      ]),
    ).toEqual([
      { name: 'weight', label: 'Peso (kg)' },
      { name: 'total', label: 'Total' },
    ]);
    expect(metadataColumns([])).toEqual([]);
  });

  it('shows labels, centre dates, the gross with its currency, and blanks for missing values', () => {
    expect(
      metadataCellText({
        name: 't',
        label: 'T',
        type: 'NUMBER',
        value: 54,
        priceType: 'GROSS',
        currency: 'EUR',
      }),
    ).toBe('54 €');
    expect(metadataCellText({ name: 't', label: 'T', type: 'NUMBER', value: 54, priceType: 'GROSS' })).toBe(
      '54 €',
    );
    expect(
      metadataCellText({
        name: 'v',
        label: 'V',
        type: 'PICKLIST',
        parseOutput: 'date',
        value: '2036-11-25T10:15:00.000Z',
        selectedLabel: '10 años',
      }),
    ).toBe('10 años');
    expect(metadataCellText({ name: 'd', label: 'D', type: 'DATE', value: '2027-01-15T00:00:00.000Z' })).toBe(
      '15/01/2027',
    );
    expect(metadataCellText({ name: 'n', label: 'N', type: 'NUMBER', value: 53.58, priceType: 'NET' })).toBe(
      '53,58 €',
    );
    // Plain numbers read the Spanish way, beside amounts such as "10,00 €".
    expect(metadataCellText({ name: 'w', label: 'Peso (kg)', type: 'NUMBER', value: 72.5 })).toBe('72,5');
    expect(metadataCellText({ name: 'o', label: 'O', type: 'TEXT', value: '' })).toBe('');
    expect(metadataCellText(undefined)).toBe('');
  });

  it('tells a record id from a patient name', () => {
    expect(isRecordId('6650f1a2b3c4d5e6f7a8b9c0')).toBe(true);
    expect(isRecordId('Lucía Hernández')).toBe(false);
    expect(isRecordId(undefined)).toBe(false);
  });
});
