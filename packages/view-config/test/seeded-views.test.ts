import { CENTRE_PROFILE_SEED, RECORDS_VIEW } from '@crm/contracts';
import {
  computeTotals,
  formatAmount,
  MEDICAL_CERTIFICATE_FIELDS,
  medicalCertificateFields,
  optionLabel,
  optionValue,
  shownFieldNames,
  validateMetadata,
  viewFieldsSchema,
  type CentrePrices,
  type MetadataValidation,
} from '../src';

const APPOINTMENT = new Date('2026-11-25T10:15:00.000Z');
const seeded = viewFieldsSchema.parse(MEDICAL_CERTIFICATE_FIELDS);

/** What a doctor fills in, as the form sends it (`{name: {name, value}}`). */
const submitted = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { name, value }]));

const CHECK_UP = {
  weight: '78',
  height: '176',
  bloodPressure: '125/80',
  visualAcuity: 'OD 1,0 / OI 0,9',
  result: 'Apto',
  validity: '5 años',
};
/** A fit driver renewing a group 1 licence for 10 years. */
const DRIVING_RENEWAL = {
  ...CHECK_UP,
  certificateType: 'Permiso de conducir',
  licenceGroup: 'GRUPO_1',
  validity: '10 años',
  dgtFee: '24.58',
};

function stored(result: MetadataValidation) {
  if (!result.ok) throw new Error(`expected valid metadata, got ${JSON.stringify(result.issues)}`);
  return result;
}
const price = (values: Record<string, unknown>, fields = seeded) =>
  stored(validateMetadata(fields, submitted(values), { anchorDate: APPOINTMENT }));

describe(`prices of the seeded form of ${RECORDS_VIEW}`, () => {
  it('prices a 10-year driving renewal at NET 53.58 and GROSS 54: check-up + DGT fee + DGT management', () => {
    const { metadata, totals } = price(DRIVING_RENEWAL);
    expect(totals).toEqual({ net: 53.58, tax: 0, gross: 54 });
    expect(metadata.net).toMatchObject({ value: 53.58, priceType: 'NET', currency: 'EUR' });
    expect(metadata.total).toMatchObject({ value: 54, priceType: 'GROSS', currency: 'EUR' });
    expect(metadata.dgtFee).toMatchObject({ value: 24.58, selectedLabel: '10 años — 24,58 €' });
    expect(metadata.dgtManagement).toMatchObject({ value: 10, priceType: 'BASE' });
  });

  it('prices a weapons check-up at the check-up only: no DGT fee, no DGT management (19 → 19)', () => {
    const { metadata, totals } = price({ ...CHECK_UP, certificateType: 'Licencia de armas' });
    expect(totals).toEqual({ net: 19, tax: 0, gross: 19 });
    expect(metadata).not.toHaveProperty('dgtFee');
    expect(metadata).not.toHaveProperty('dgtManagement');
    expect(metadata).not.toHaveProperty('licenceGroup');
  });

  it('ignores DGT amounts sent for a studies check-up, and adds what does apply (extra report, tax)', () => {
    const { metadata, totals } = price({
      ...CHECK_UP,
      certificateType: 'Estudios',
      dgtFee: '24.58',
      dgtManagement: 10,
      licenceGroup: 'GRUPO_2',
      extraReport: '10',
      taxType: 'Fijo',
      tax: '1,5',
    });
    expect(totals).toEqual(computeTotals({ base: [19, 10], discount: [], tax: 1.5, taxType: 'Fijo' }));
    expect(totals).toEqual({ net: 29, tax: 1.5, gross: 31 });
    expect(Object.keys(metadata)).toEqual(expect.not.arrayContaining(['dgtFee', 'dgtManagement']));
  });

  it('counts the check-up only while no certificate type is chosen', () => {
    const shown = shownFieldNames(seeded, () => undefined);
    expect(shown.has('checkupFee')).toBe(true);
    expect(shown.has('dgtFee')).toBe(false);
    expect(shown.has('dgtManagement')).toBe(false);
  });

  it('shows the licence group and both DGT fields together for a driving licence only', () => {
    const shownFor = (certificateType: string) =>
      ['licenceGroup', 'dgtFee', 'dgtManagement'].filter((name) =>
        shownFieldNames(seeded, (field) => (field === 'certificateType' ? certificateType : undefined)).has(
          name,
        ),
      );
    expect(shownFor('Permiso de conducir')).toEqual(['licenceGroup', 'dgtFee', 'dgtManagement']);
    for (const other of seeded[0]!.options!.slice(1)) expect(shownFor(optionValue(other))).toEqual([]);
  });

  it('still requires the DGT fee of a driving licence (the exempt choose 0)', () => {
    const exempt = price({ ...DRIVING_RENEWAL, dgtFee: '0' });
    expect(exempt.totals).toEqual({ net: 29, tax: 0, gross: 29 });
    const missing = validateMetadata(seeded, submitted({ ...DRIVING_RENEWAL, dgtFee: '' }), {
      anchorDate: APPOINTMENT,
    });
    expect(missing.ok || missing.issues).toEqual([
      { field: 'metadata.dgtFee', message: 'El campo «Tasa DGT según vigencia» es obligatorio' },
    ]);
  });
});

describe('default prices come from the centre profile', () => {
  const prices = (changes: Partial<CentrePrices>): CentrePrices => ({
    ...CENTRE_PROFILE_SEED.prices,
    ...changes,
  });
  const field = (fields: ReturnType<typeof medicalCertificateFields>, name: string) =>
    fields.find((candidate) => candidate.name === name)!;
  const options = (fields: ReturnType<typeof medicalCertificateFields>, name: string) =>
    field(fields, name).options!.map((option) => [optionValue(option), optionLabel(option)]);

  it('MEDICAL_CERTIFICATE_FIELDS is the form with the seeded profile’s prices', () => {
    expect(MEDICAL_CERTIFICATE_FIELDS).toEqual(medicalCertificateFields(CENTRE_PROFILE_SEED.prices));
    expect(field(seeded, 'checkupFee').defaultValue).toBe(19);
    expect(field(seeded, 'dgtManagement').defaultValue).toBe(10);
    expect(options(seeded, 'dgtFee')).toEqual([
      ['24.58', '10 años — 24,58 €'],
      ['19.67', '4 años — 19,67 €'],
      ['14.75', '3 años — 14,75 €'],
      ['9.83', '2 años — 9,83 €'],
      ['4.92', '1 año — 4,92 €'],
      ['0', 'Exento (mayores de 70 años) o sin trámite DGT — 0,00 €'],
    ]);
    expect(options(seeded, 'extraReport')).toEqual([
      ['0', 'No'],
      ['10', 'Sí — 10,00 €'],
    ]);
  });

  it('uses the profile’s check-up, DGT fees, management fee, supplement and currency', () => {
    const fields = viewFieldsSchema.parse(
      medicalCertificateFields(
        prices({
          checkUp: 25,
          dgtManagementFee: 12.5,
          extraReportSupplement: 15,
          dgtFees: { '10': 26, '4': 20.8, '3': 15.6, '2': 10.4, '1': 5.2 },
          currency: 'USD',
        }),
      ),
    );
    expect(field(fields, 'checkupFee').defaultValue).toBe(25);
    expect(field(fields, 'dgtManagement').defaultValue).toBe(12.5);
    expect(options(fields, 'dgtFee')[0]).toEqual(['26', '10 años — 26,00 USD']);
    expect(options(fields, 'extraReport')[1]).toEqual(['15', 'Sí — 15,00 USD']);
    expect(new Set(fields.filter((f) => f.price).map((f) => f.price!.currency))).toEqual(new Set(['USD']));
    const { totals, metadata } = price({ ...DRIVING_RENEWAL, dgtFee: '26' }, fields);
    expect(totals).toEqual({ net: 63.5, tax: 0, gross: 64 });
    expect(metadata.total).toMatchObject({ value: 64, currency: 'USD' });
    expect(price({ ...CHECK_UP, certificateType: 'Seguridad privada' }, fields).totals.net).toBe(25);
  });

  it('stays a valid configuration when two choices cost the same (one option, both names)', () => {
    const fields = viewFieldsSchema.parse(
      medicalCertificateFields(
        prices({
          extraReportSupplement: 0,
          dgtFees: { '10': 24.58, '4': 24.58, '3': 14.75, '2': 9.83, '1': 0 },
        }),
      ),
    );
    expect(options(fields, 'dgtFee')).toEqual([
      ['24.58', '10 años / 4 años — 24,58 €'],
      ['14.75', '3 años — 14,75 €'],
      ['9.83', '2 años — 9,83 €'],
      ['0', '1 año / Exento (mayores de 70 años) o sin trámite DGT — 0,00 €'],
    ]);
    expect(options(fields, 'extraReport')).toEqual([['0', 'No / Sí — 0,00 €']]);
  });

  it('formats amounts the Spanish way', () => {
    expect(formatAmount(24.58, 'EUR')).toBe('24,58 €');
    expect(formatAmount(10, 'EUR')).toBe('10,00 €');
    expect(formatAmount(7.5, 'GBP')).toBe('7,50 GBP');
  });
});
