import { RECORDS_VIEW } from '@crm/contracts';
import {
  computeTotals,
  MEDICAL_CERTIFICATE_FIELDS,
  validateMetadata,
  viewFieldsSchema,
} from '@crm/view-config';

const fields = viewFieldsSchema.parse(MEDICAL_CERTIFICATE_FIELDS);
const appointment = new Date('2026-11-25T10:15:00.000Z');

/** What a doctor fills in for a fit driver renewing for 10 years. */
const drivingRenewal = (extra: Record<string, unknown> = {}) =>
  Object.fromEntries(
    Object.entries({
      certificateType: 'Permiso de conducir',
      licenceGroup: 'GRUPO_1',
      weight: '78',
      height: '176',
      bloodPressure: '125/80',
      visualAcuity: 'OD 1,0 / OI 0,9',
      hearing: 'Normal',
      result: 'Apto',
      validity: '10 años',
      dgtFee: '24.58',
      ...extra,
    }).map(([name, value]) => [name, { name, value }]),
  );

describe(`the seeded configuration of ${RECORDS_VIEW}`, () => {
  it('is a valid configuration with every certificate type of the centre', () => {
    expect(fields.map((field) => field.name)).toEqual([
      'certificateType',
      'licenceGroup',
      'weight',
      'height',
      'bloodPressure',
      'visualAcuity',
      'hearing',
      'result',
      'restrictions',
      'validity',
      'observations',
      'checkupFee',
      'dgtFee',
      'dgtManagement',
      'extraReport',
      'discount',
      'taxType',
      'tax',
      'net',
      'total',
    ]);
    expect(fields[0]!.options).toHaveLength(8);
  });

  it('offers the official DGT fees by validity, and 0 for the exempt', () => {
    const dgt = fields.find((field) => field.name === 'dgtFee')!;
    expect(dgt.options!.map((option) => (typeof option === 'string' ? option : option.value))).toEqual([
      '24.58',
      '19.67',
      '14.75',
      '9.83',
      '4.92',
      '0',
    ]);
  });

  it('prices a 10-year driving renewal at 53.58 EUR net (19 + 24.58 + 10) and 54 EUR gross', () => {
    const result = validateMetadata(fields, drivingRenewal(), { anchorDate: appointment });
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.metadata.net).toMatchObject({ value: 53.58, currency: 'EUR', priceType: 'NET' });
    expect(result.metadata.total).toMatchObject({ value: 54, currency: 'EUR', priceType: 'GROSS' });
    expect(result.metadata.validity).toMatchObject({
      value: '2036-11-25T10:15:00.000Z',
      selectedLabel: '10 años',
    });
    expect(result.metadata.licenceGroup).toMatchObject({
      value: 'GRUPO_1',
      selectedLabel: 'Grupo 1 (AM, A1, A2, A, B, B+E)',
    });
  });

  it('adds the extra report and a 21 % tax: (53.58 + 10) × 1.21 → 76.93 → 77', () => {
    const result = validateMetadata(
      fields,
      drivingRenewal({ extraReport: '10', taxType: 'Porcentaje', tax: 21 }),
      { anchorDate: appointment },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.issues));
    expect(result.totals).toEqual(
      computeTotals({ base: [19, 24.58, 10, 10], discount: [], tax: 21, taxType: 'Porcentaje' }),
    );
    expect(result.metadata.net!.value).toBe(63.58);
    expect(result.metadata.total!.value).toBe(77);
  });

  it('asks for the licence group only for a driving licence, and restrictions only when restricted', () => {
    const weapons = validateMetadata(
      fields,
      drivingRenewal({ certificateType: 'Licencia de armas', licenceGroup: undefined, dgtFee: '0' }),
      {
        anchorDate: appointment,
      },
    );
    expect(weapons.ok && Object.keys(weapons.metadata)).not.toContain('licenceGroup');
    const restricted = validateMetadata(fields, drivingRenewal({ result: 'Apto con restricciones' }), {
      anchorDate: appointment,
    });
    expect(restricted.ok).toBe(false);
  });
});
