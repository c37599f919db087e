import { describe, expect, it } from '@jest/globals';
import type { ViewField } from '@crm/contracts';
import { validateMetadata, viewFieldsSchema } from '@crm/view-config';
import { defaultValues, withChange, type FormValues } from './form-values';
import { createRecordPayload } from './payload';
import { APPOINTMENT_DATE, DRIVING_RENEWAL, SEEDED_FIELDS } from './seeded-form.fixture';
import { computedDisplay, currencyOf, formTotals } from './totals';

/** The seeded form at its defaults with these inputs typed over them. */
const seeded = (typed: FormValues = {}): FormValues => ({
  ...defaultValues(SEEDED_FIELDS, APPOINTMENT_DATE),
  ...typed,
});
const field = (name: string) => SEEDED_FIELDS.find((candidate) => candidate.name === name)!;
const shows = (values: FormValues) => {
  const totals = formTotals(SEEDED_FIELDS, values);
  return { net: computedDisplay(field('net'), totals), total: computedDisplay(field('total'), totals) };
};

describe('live prices of the seeded form', () => {
  it('starts at the defaults: the check-up only (19) while no certificate type is chosen', () => {
    expect(formTotals(SEEDED_FIELDS, seeded())).toEqual({ net: 19, tax: 0, gross: 19 });
  });

  it('adds the DGT management (10) and fee for a driving licence only; weapons or studies: the check-up', () => {
    const total = (certificateType: string) =>
      formTotals(SEEDED_FIELDS, seeded({ ...DRIVING_RENEWAL, certificateType })).gross;
    expect(total('Permiso de conducir')).toBe(54);
    expect(total('Licencia de armas')).toBe(19);
    expect(total('Estudios')).toBe(19);
    // Before a DGT fee is chosen only the management counts (the field is required, with no default).
    expect(formTotals(SEEDED_FIELDS, seeded({ certificateType: 'Permiso de conducir' })).net).toBe(29);
  });

  it('reproduces the 10-year driving renewal: 19 + 24.58 + 10 = 53.58 EUR net, 54 EUR gross', () => {
    const values = seeded(DRIVING_RENEWAL);
    expect(formTotals(SEEDED_FIELDS, values)).toEqual({ net: 53.58, tax: 0, gross: 54 });
    expect(shows(values)).toEqual({ net: '53,58 €', total: '54 €' });
  });

  it('takes each DGT fee of the validity picklist by its option value', () => {
    const net = (dgtFee: string) =>
      formTotals(SEEDED_FIELDS, seeded({ certificateType: 'Permiso de conducir', dgtFee })).net;
    expect(['24.58', '19.67', '14.75', '9.83', '4.92', '0'].map(net)).toEqual([
      53.58, 48.67, 43.75, 38.83, 33.92, 29,
    ]);
  });

  it('adds the extra report supplement of 10 EUR: 63.58 → 64', () => {
    expect(formTotals(SEEDED_FIELDS, seeded({ ...DRIVING_RENEWAL, extraReport: '10' }))).toEqual({
      net: 63.58,
      tax: 0,
      gross: 64,
    });
  });

  it('subtracts the DISCOUNT from the sum of the BASE fields', () => {
    expect(formTotals(SEEDED_FIELDS, seeded({ ...DRIVING_RENEWAL, discount: '3.58' }))).toEqual({
      net: 50,
      tax: 0,
      gross: 50,
    });
  });

  it('applies the TAX as a percentage of the net when taxType is "Porcentaje": 21 % → 11.25, gross 65', () => {
    const values = seeded({ ...DRIVING_RENEWAL, taxType: 'Porcentaje', tax: '21' });
    expect(formTotals(SEEDED_FIELDS, values)).toEqual({ net: 53.58, tax: 11.25, gross: 65 });
    expect(shows(values)).toEqual({ net: '53,58 €', total: '65 €' });
  });

  it('adds the TAX as a flat amount for any other taxType: 53.58 + 2 = 55.58 → 56', () => {
    expect(formTotals(SEEDED_FIELDS, seeded({ ...DRIVING_RENEWAL, taxType: 'Fijo', tax: '2' }))).toEqual({
      net: 53.58,
      tax: 2,
      gross: 56,
    });
  });

  it('rounds the gross to a whole number, halves up (x.50 → up, x.49 → down)', () => {
    expect(formTotals(SEEDED_FIELDS, seeded({ checkupFee: '19.5' })).gross).toBe(20);
    expect(formTotals(SEEDED_FIELDS, seeded({ checkupFee: '19.49' })).gross).toBe(19);
  });

  it('coerces what is typed into numbers, fallback 0: "24,58", "", "abc"', () => {
    const driving = (typed: FormValues) =>
      formTotals(SEEDED_FIELDS, seeded({ certificateType: 'Permiso de conducir', ...typed })).net;
    expect(driving({ checkupFee: '19,5' })).toBe(29.5);
    expect(driving({ checkupFee: '' })).toBe(10);
    expect(driving({ checkupFee: 'abc', dgtManagement: ' ' })).toBe(0);
  });

  it('matches the server: the records service prices the form’s payload to the same totals', () => {
    for (const typed of [
      DRIVING_RENEWAL,
      { ...DRIVING_RENEWAL, taxType: 'Porcentaje', tax: '21' },
      { ...DRIVING_RENEWAL, taxType: 'Fijo', tax: '2,4', discount: '5', extraReport: '10' },
      { ...DRIVING_RENEWAL, certificateType: 'Licencia de armas' },
      { ...DRIVING_RENEWAL, certificateType: 'Estudios', extraReport: '10', taxType: 'Fijo', tax: '1' },
    ]) {
      const values = seeded(typed);
      const { metadata } = createRecordPayload(SEEDED_FIELDS, values, {
        userId: 'u',
        dateId: 'd',
        date: APPOINTMENT_DATE,
      });
      const server = validateMetadata(SEEDED_FIELDS, metadata, { anchorDate: APPOINTMENT_DATE });
      expect(server.ok).toBe(true);
      if (!server.ok) continue;
      expect(server.totals).toEqual(formTotals(SEEDED_FIELDS, values));
      expect(metadata.net!.value).toBe(server.metadata.net!.value);
      expect(metadata.total!.value).toBe(server.metadata.total!.value);
    }
  });
});

describe('price rules on a custom configuration', () => {
  const fields: ViewField[] = viewFieldsSchema.parse([
    {
      name: 'kind',
      label: 'Tipo',
      fieldType: 'PICKLIST',
      options: ['Simple', 'Con informe'],
      defaultValue: 'Simple',
      conditionalField: { ifSelected: 'Con informe', field: 'report' },
    },
    { name: 'report', label: 'Informe', fieldType: 'NUMBER', visible: false, price: { type: 'BASE' } },
    { name: 'fee', label: 'Tarifa', fieldType: 'NUMBER', defaultValue: 20, price: { type: 'BASE' } },
    {
      name: 'fixed',
      label: 'Fijo oculto',
      fieldType: 'NUMBER',
      visible: false,
      defaultValue: 5,
      price: { type: 'BASE' },
    },
    { name: 'tax', label: 'IGIC', fieldType: 'NUMBER', defaultValue: 7, price: { type: 'TAX' } },
    { name: 'gross', label: 'Total', fieldType: 'NUMBER', price: { type: 'GROSS' } },
  ]);
  const values = (typed: FormValues) => ({ ...defaultValues(fields, APPOINTMENT_DATE), ...typed });

  it('counts a conditional price only while its condition holds', () => {
    expect(formTotals(fields, values({ report: '10' })).net).toBe(25);
    expect(formTotals(fields, values({ kind: 'Con informe', report: '10' })).net).toBe(35);
  });

  it('counts a hidden price at its default, whatever the form holds for it (as the server does)', () => {
    expect(formTotals(fields, values({ fixed: '500' })).net).toBe(25);
  });

  it('adds the TAX flat when the form has no taxType field: 25 + 7 = 32', () => {
    expect(formTotals(fields, values({}))).toEqual({ net: 25, tax: 7, gross: 32 });
  });

  it('shows the GROSS with EUR when the configuration names no currency, else with its currency', () => {
    const gross = fields.find((candidate) => candidate.name === 'gross')!;
    expect(currencyOf(gross)).toBe('EUR');
    expect(computedDisplay(gross, { net: 25, tax: 7, gross: 32 })).toBe('32 €');
    expect(
      computedDisplay({ ...gross, price: { type: 'GROSS', currency: 'USD' } }, { net: 1, tax: 0, gross: 1 }),
    ).toBe('1 US$');
    expect(computedDisplay(fields[2]!, { net: 1, tax: 0, gross: 1 })).toBeUndefined();
  });
});

describe('the DGT fee of a driving licence', () => {
  it('has no preselected exemption: the field starts empty and is required', () => {
    expect(field('dgtFee').defaultValue).toBeUndefined();
    expect(field('dgtFee').required).toBe(true);
    expect(seeded().dgtFee).toBe('');
  });

  it('follows the chosen validity: "10 años" picks 24,58 € and the total becomes 54 €', () => {
    let values = seeded({ certificateType: 'Permiso de conducir' });
    values = withChange(SEEDED_FIELDS, values, 'validity', '10 años');
    expect(values.dgtFee).toBe('24.58');
    expect(shows(values)).toEqual({ net: '53,58 €', total: '54 €' });
    values = withChange(SEEDED_FIELDS, values, 'validity', '2 años');
    expect(formTotals(SEEDED_FIELDS, values).net).toBe(19 + 9.83 + 10);
  });

  it('keeps the fee when the validity has no fee of its own ("6 meses"), and a fee chosen by hand', () => {
    let values = withChange(SEEDED_FIELDS, seeded(), 'validity', '10 años');
    values = withChange(SEEDED_FIELDS, values, 'validity', '6 meses');
    expect(values.dgtFee).toBe('24.58');
    values = withChange(SEEDED_FIELDS, values, 'dgtFee', '0');
    expect(values.dgtFee).toBe('0');
  });
});
