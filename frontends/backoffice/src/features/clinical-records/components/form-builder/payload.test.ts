import { describe, expect, it } from '@jest/globals';
import { validateMetadata } from '@crm/view-config';
import { defaultValues, type FormValues } from './form-values';
import { buildMetadata, createRecordPayload, updateRecordPayload } from './payload';
import { APPOINTMENT_DATE, DRIVING_RENEWAL, SEEDED_FIELDS } from './seeded-form.fixture';
import { visibleFieldNames } from './visibility';

const seeded = (typed: FormValues = {}): FormValues => ({
  ...defaultValues(SEEDED_FIELDS, APPOINTMENT_DATE),
  ...typed,
});
const target = {
  userId: '6650f1a2b3c4d5e6f7a8b9c0',
  dateId: '6650f1a2b3c4d5e6f7a8b9c1',
  date: APPOINTMENT_DATE,
};

describe('defaults and conditional sub-fields', () => {
  it('fills each field with its default: numbers and picklists as the inputs show them', () => {
    expect(seeded()).toMatchObject({
      hearing: 'Normal',
      checkupFee: '19',
      dgtFee: '',
      dgtManagement: '10',
      extraReport: '0',
      discount: '0',
      taxType: 'Porcentaje',
      tax: '0',
      weight: '',
      net: '',
    });
  });

  it('shows "Grupo de permiso" only for "Permiso de conducir", "Restricciones" only for "Apto con restricciones"', () => {
    const shown = (typed: FormValues) => visibleFieldNames(SEEDED_FIELDS, seeded(typed));
    expect(shown({}).has('licenceGroup')).toBe(false);
    expect(shown({ certificateType: 'Licencia de armas' }).has('licenceGroup')).toBe(false);
    expect(shown({ certificateType: 'Permiso de conducir' }).has('licenceGroup')).toBe(true);
    expect(shown({ result: 'Apto' }).has('restrictions')).toBe(false);
    expect(shown({ result: 'Apto con restricciones' }).has('restrictions')).toBe(true);
    expect(shown({}).has('weight')).toBe(true);
  });
});

describe('the create payload {userId, dateId, metadata}', () => {
  const payload = createRecordPayload(SEEDED_FIELDS, seeded(DRIVING_RENEWAL), target);

  it('names the patient and the appointment and has one entry per field of the record, keyed by name', () => {
    expect(payload.userId).toBe(target.userId);
    expect(payload.dateId).toBe(target.dateId);
    const expected = SEEDED_FIELDS.map((field) => field.name).filter((name) => name !== 'restrictions');
    expect(Object.keys(payload.metadata)).toEqual(expected);
  });

  it('sends label, type, parseOutput, name, value and priceType; numbers as numbers, durations as dates', () => {
    expect(payload.metadata.weight).toEqual({
      name: 'weight',
      label: 'Peso (kg)',
      type: 'NUMBER',
      parseOutput: 'number',
      value: 72.5,
    });
    expect(payload.metadata.dgtFee).toEqual({
      name: 'dgtFee',
      label: 'Tasa DGT según vigencia',
      type: 'PICKLIST',
      parseOutput: 'number',
      value: 24.58,
      priceType: 'BASE',
    });
    expect(payload.metadata.validity).toEqual({
      name: 'validity',
      label: 'Vigencia del certificado',
      type: 'PICKLIST',
      parseOutput: 'date',
      value: '2036-11-25T10:15:00.000Z',
    });
    expect(payload.metadata.bloodPressure).toEqual({
      name: 'bloodPressure',
      label: 'Tensión arterial (mmHg)',
      type: 'TEXT',
      value: '120/80',
    });
    expect(payload.metadata.net!.value).toBe(53.58);
    expect(payload.metadata.total).toMatchObject({ value: 54, priceType: 'GROSS' });
  });

  it('sends an empty optional number as 0 and an empty text as ""', () => {
    const empty = createRecordPayload(
      SEEDED_FIELDS,
      seeded({ ...DRIVING_RENEWAL, discount: '', observations: '' }),
      target,
    );
    expect(empty.metadata.discount!.value).toBe(0);
    expect(empty.metadata.observations!.value).toBe('');
  });

  it('sends a shown sub-field, and leaves it out once its parent changes', () => {
    const withRestrictions = seeded({
      ...DRIVING_RENEWAL,
      result: 'Apto con restricciones',
      restrictions: 'Gafas',
    });
    expect(createRecordPayload(SEEDED_FIELDS, withRestrictions, target).metadata.restrictions!.value).toBe(
      'Gafas',
    );
    const changed = { ...withRestrictions, result: 'Apto' };
    expect(createRecordPayload(SEEDED_FIELDS, changed, target).metadata.restrictions).toBeUndefined();
    const armas = seeded({ ...DRIVING_RENEWAL, certificateType: 'Licencia de armas' });
    expect(createRecordPayload(SEEDED_FIELDS, armas, target).metadata.licenceGroup).toBeUndefined();
  });

  it('is a valid record for the server as it stands', () => {
    expect(validateMetadata(SEEDED_FIELDS, payload.metadata, { anchorDate: APPOINTMENT_DATE }).ok).toBe(true);
  });
});

describe('the update payload {metadata} (empty values omitted)', () => {
  it('leaves out the fields left empty, keeps the rest and the computed totals', () => {
    const { metadata, ...rest } = updateRecordPayload(
      SEEDED_FIELDS,
      seeded({ ...DRIVING_RENEWAL, observations: '  ', discount: '' }),
      APPOINTMENT_DATE,
    );
    expect(rest).toEqual({});
    expect(metadata.observations).toBeUndefined();
    expect(metadata.discount).toBeUndefined();
    expect(metadata.weight!.value).toBe(72.5);
    expect(metadata.total!.value).toBe(54);
  });

  it('is what the server merges over the stored record without losing the omitted fields', () => {
    const created = validateMetadata(
      SEEDED_FIELDS,
      buildMetadata(
        SEEDED_FIELDS,
        seeded({ ...DRIVING_RENEWAL, observations: 'Primera visita' }),
        APPOINTMENT_DATE,
      ),
      { anchorDate: APPOINTMENT_DATE },
    );
    if (!created.ok) throw new Error('created');
    const update = updateRecordPayload(
      SEEDED_FIELDS,
      seeded({ ...DRIVING_RENEWAL, observations: '', tax: '21' }),
      APPOINTMENT_DATE,
    );
    const updated = validateMetadata(SEEDED_FIELDS, update.metadata, {
      anchorDate: APPOINTMENT_DATE,
      previous: created.metadata,
    });
    expect(updated.ok && updated.metadata.observations!.value).toBe('Primera visita');
    expect(updated.ok && updated.totals).toEqual({ net: 53.58, tax: 11.25, gross: 65 });
  });
});
