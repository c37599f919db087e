import { summarizeIssues, TEXT_LENGTH_MESSAGE, validateMetadata, type MetadataValidation } from '../src';
import { APPOINTMENT, certificateFields, submission } from './fixtures';

const validate = (values: Record<string, unknown> = {}, previous?: Record<string, { value: unknown }>) =>
  validateMetadata(certificateFields, submission(values), { anchorDate: APPOINTMENT, previous });

function stored(result: MetadataValidation) {
  if (!result.ok) throw new Error(`expected valid metadata, got ${JSON.stringify(result.issues)}`);
  return result.metadata;
}
function issues(result: MetadataValidation) {
  if (result.ok) throw new Error('expected issues');
  return result.issues;
}
const valueOf = (result: MetadataValidation, name: string) => stored(result)[name]?.value;

describe('record metadata: what is stored', () => {
  it('stores one normalised entry per shown field, labels and types from the configuration', () => {
    const metadata = stored(validate({ weight: '72,5', bloodPressure: '  120/80 ' }));
    expect(metadata.weight).toEqual({
      name: 'weight',
      label: 'Peso (kg)',
      type: 'NUMBER',
      parseOutput: 'number',
      value: 72.5,
    });
    expect(metadata.bloodPressure).toEqual({
      name: 'bloodPressure',
      label: 'Tensión arterial',
      type: 'TEXT',
      value: '120/80',
    });
    expect(metadata.result).toEqual({
      name: 'result',
      label: 'Resultado',
      type: 'PICKLIST',
      value: 'Apto',
      selectedLabel: 'Apto',
    });
    expect(metadata.checkupFee).toEqual({
      name: 'checkupFee',
      label: 'Reconocimiento',
      type: 'NUMBER',
      value: 19,
      priceType: 'BASE',
      currency: 'EUR',
    });
    expect(metadata.dgtFee).toMatchObject({
      value: 24.58,
      selectedLabel: '10 años — 24,58 €',
      priceType: 'BASE',
      currency: 'EUR',
      parseOutput: 'number',
    });
    expect(Object.keys(metadata)).not.toContain('restrictions');
    expect(Object.keys(metadata)).not.toContain('licenceGroup');
  });

  it('ignores the label, type and priceType a client sends and takes them from the configuration', () => {
    const result = validateMetadata(
      certificateFields,
      { ...submission(), weight: { value: 70, label: 'Hacked', type: 'TEXT', priceType: 'GROSS' } as never },
      { anchorDate: APPOINTMENT },
    );
    expect(stored(result).weight).toEqual({
      name: 'weight',
      label: 'Peso (kg)',
      type: 'NUMBER',
      parseOutput: 'number',
      value: 70,
    });
  });

  it('fills a field left out with its default value, and an empty optional number or price with 0', () => {
    const result = validateMetadata(
      certificateFields,
      submission({ checkupFee: undefined, dgtFee: undefined, dgtManagement: undefined, discount: '' }),
      {
        anchorDate: APPOINTMENT,
      },
    );
    // `submission` sends `value: undefined` for these: the same as leaving them out.
    expect(valueOf(result, 'checkupFee')).toBe(19);
    expect(valueOf(result, 'dgtFee')).toBe(0);
    expect(valueOf(result, 'dgtManagement')).toBe(10);
    expect(valueOf(result, 'discount')).toBe(0);
    expect(valueOf(result, 'taxType')).toBe('Porcentaje');
    expect(valueOf(result, 'observations')).toBe('');
  });

  it('stores a hidden field with its default value, whatever the client sends', () => {
    expect(valueOf(validate(), 'centre')).toBe('CRM Las Palmas');
    expect(valueOf(validate({ centre: 'Otro centro' }), 'centre')).toBe('CRM Las Palmas');
  });
});

describe('record metadata: prices are computed by the server', () => {
  it('computes the 10-year driving renewal: 19 + 24.58 + 10 = 53.58 net, gross 54', () => {
    const result = validate({
      certificateType: 'Permiso de conducir',
      licenceGroup: 'Grupo 1',
      taxType: 'Fijo',
      tax: 0,
    });
    const amount = (name: string, label: string, value: number, priceType: string) => ({
      name,
      label,
      type: 'NUMBER',
      value,
      priceType,
      currency: 'EUR',
    });
    expect(stored(result).net).toEqual(amount('net', 'Neto', 53.58, 'NET'));
    expect(stored(result).total).toEqual(amount('total', 'Total', 54, 'GROSS'));
    expect(result.ok && result.totals).toEqual({ net: 53.58, tax: 0, gross: 54 });
  });

  it('applies a percentage tax: 21 % of 53.58 → gross 65', () => {
    const result = validate({ taxType: 'Porcentaje', tax: '21' });
    expect(valueOf(result, 'net')).toBe(53.58);
    expect(valueOf(result, 'tax')).toBe(21);
    expect(valueOf(result, 'total')).toBe(65);
  });

  it('applies a flat tax: 53.58 + 2.50 → gross 56', () => {
    expect(valueOf(validate({ taxType: 'Fijo', tax: 2.5 }), 'total')).toBe(56);
  });

  it('subtracts the discount', () => {
    const result = validate({ discount: '3,58' });
    expect(valueOf(result, 'net')).toBe(50);
    expect(valueOf(result, 'total')).toBe(50);
  });

  it('ignores client-sent totals: a tampered net and gross are replaced by the computed ones', () => {
    const result = validate({ net: 1, total: 0.01 });
    expect(valueOf(result, 'net')).toBe(53.58);
    expect(valueOf(result, 'total')).toBe(54);
  });

  it('accepts a price picklist value sent as a number', () => {
    expect(valueOf(validate({ dgtFee: 4.92 }), 'dgtFee')).toBe(4.92);
    expect(valueOf(validate({ dgtFee: '4,92' }), 'dgtFee')).toBe(4.92);
  });

  it('refuses a price picklist value that is not one of its options', () => {
    expect(issues(validate({ dgtFee: '30' }))).toEqual([
      { field: 'metadata.dgtFee', message: 'El valor de «Tasa DGT» no es una de sus opciones' },
    ]);
  });

  it('refuses negative amounts, a discount above the base and a percentage above 100', () => {
    expect(issues(validate({ checkupFee: -19 }))).toEqual([
      { field: 'metadata.checkupFee', message: 'El importe de «Reconocimiento» no puede ser negativo' },
    ]);
    expect(issues(validate({ discount: 60 }))).toEqual([
      {
        field: 'metadata.discount',
        message: 'El descuento «Descuento» no puede superar la suma de los importes base',
      },
    ]);
    expect(issues(validate({ taxType: 'Porcentaje', tax: 101 }))).toEqual([
      { field: 'metadata.tax', message: 'El porcentaje de «Impuesto» no puede superar el 100 %' },
    ]);
    expect(valueOf(validate({ taxType: 'Fijo', tax: 101 }), 'total')).toBe(155);
  });

  it('refuses absurd amounts', () => {
    expect(issues(validate({ checkupFee: 10_000_000 }))[0]!.message).toBe(
      'El valor de «Reconocimiento» está fuera de rango',
    );
  });
});

describe('record metadata: validation rules', () => {
  it('refuses a field the configuration does not have', () => {
    const result = validateMetadata(
      certificateFields,
      { ...submission(), favouriteColour: { value: 'azul' } },
      { anchorDate: APPOINTMENT },
    );
    expect(issues(result)).toEqual([
      { field: 'metadata.favouriteColour', message: 'Campo desconocido: favouriteColour' },
    ]);
  });

  it('refuses an entry whose name differs from its key', () => {
    const result = validateMetadata(
      certificateFields,
      { ...submission(), weight: { name: 'height', value: 70 } },
      { anchorDate: APPOINTMENT },
    );
    expect(issues(result)).toEqual([
      { field: 'metadata.weight', message: 'El nombre del campo no coincide con su clave: weight' },
    ]);
  });

  it.each([
    ['left out', undefined],
    ['empty', ''],
    ['blank', '   '],
    ['null', null],
  ])('refuses a required field %s', (_label, value) => {
    expect(issues(validate({ result: value }))).toEqual([
      { field: 'metadata.result', message: 'El campo «Resultado» es obligatorio' },
    ]);
  });

  it('lists every problem at once, in the order of the form', () => {
    expect(
      issues(validate({ weight: 'mucho', result: 'Quizá', validity: '' })).map((problem) => problem.field),
    ).toEqual(['metadata.weight', 'metadata.result', 'metadata.validity']);
  });

  it.each([
    ['a text', 'setenta'],
    ['a boolean', true],
    ['an object', { kg: 70 }],
    ['an array', [70]],
  ])('refuses %s in a number field', (_label, value) => {
    expect(issues(validate({ weight: value }))).toEqual([
      { field: 'metadata.weight', message: 'El campo «Peso (kg)» debe ser un número' },
    ]);
  });

  it('accepts texts of 0 to 100 characters and refuses 101 with the "0 and 100 characters" message', () => {
    expect(valueOf(validate({ observations: 'x'.repeat(100) }), 'observations')).toBe('x'.repeat(100));
    expect(valueOf(validate({ observations: 'ñ'.repeat(100) }), 'observations')).toBe('ñ'.repeat(100));
    expect(valueOf(validate({ observations: '' }), 'observations')).toBe('');
    expect(issues(validate({ observations: 'x'.repeat(101) }))).toEqual([
      { field: 'metadata.observations', message: TEXT_LENGTH_MESSAGE },
    ]);
    expect(TEXT_LENGTH_MESSAGE).toContain('0 and 100 characters');
  });

  it('refuses a non-text value in a text field', () => {
    expect(issues(validate({ observations: 42 }))).toEqual([
      { field: 'metadata.observations', message: 'El campo «Observaciones» debe ser un texto' },
    ]);
    expect(issues(validate({ observations: { $gt: '' } }))).toHaveLength(1);
  });

  it('refuses a picklist value that is not an option, or not a text', () => {
    expect(issues(validate({ result: 'apto' }))[0]!.message).toBe(
      'El valor de «Resultado» no es una de sus opciones',
    );
    expect(issues(validate({ result: ['Apto'] }))[0]!.field).toBe('metadata.result');
  });

  it('summarises issues with the text-length message when there is one, else the first', () => {
    const many = issues(validate({ weight: 'x', observations: 'x'.repeat(101) }));
    expect(summarizeIssues(many)).toBe(TEXT_LENGTH_MESSAGE);
    expect(summarizeIssues(issues(validate({ weight: 'x' })))).toBe(
      'El campo «Peso (kg)» debe ser un número',
    );
  });
});

describe('record metadata: conditional fields', () => {
  it('requires the restrictions only when the result is "Apto con restricciones"', () => {
    expect(issues(validate({ result: 'Apto con restricciones' }))).toEqual([
      { field: 'metadata.restrictions', message: 'El campo «Restricciones» es obligatorio' },
    ]);
    const result = validate({ result: 'Apto con restricciones', restrictions: 'Gafas obligatorias' });
    expect(stored(result).restrictions).toEqual({
      name: 'restrictions',
      label: 'Restricciones',
      type: 'TEXT',
      value: 'Gafas obligatorias',
    });
  });

  it('drops a conditional field whose condition does not hold, even when sent', () => {
    expect(Object.keys(stored(validate({ result: 'Apto', restrictions: 'Gafas' })))).not.toContain(
      'restrictions',
    );
  });

  it('requires and stores the licence group only for a driving certificate', () => {
    expect(issues(validate({ certificateType: 'Permiso de conducir' }))[0]!.field).toBe(
      'metadata.licenceGroup',
    );
    expect(
      valueOf(validate({ certificateType: 'Permiso de conducir', licenceGroup: 'Grupo 2' }), 'licenceGroup'),
    ).toBe('Grupo 2');
    expect(
      Object.keys(stored(validate({ certificateType: 'Licencia de armas', licenceGroup: 'Grupo 2' }))),
    ).not.toContain('licenceGroup');
  });
});

describe('record metadata: dates and relative durations', () => {
  it('turns a validity option into the date counted from the appointment, keeping the option as selectedLabel', () => {
    expect(stored(validate({ validity: '10 años' })).validity).toEqual({
      name: 'validity',
      label: 'Vigencia',
      type: 'PICKLIST',
      parseOutput: 'date',
      value: '2036-11-25T10:15:00.000Z',
      selectedLabel: '10 años',
    });
    expect(valueOf(validate({ validity: '6 meses' }), 'validity')).toBe('2027-05-25T10:15:00.000Z');
  });

  it('accepts a stored validity date back when it is within 15 days of an option (editing)', () => {
    const result = validate({ validity: '2031-12-05T00:00:00.000Z' });
    expect(stored(result).validity).toMatchObject({
      value: '2031-11-25T10:15:00.000Z',
      selectedLabel: '5 años',
    });
  });

  it('refuses a validity date more than 15 days from every option', () => {
    expect(issues(validate({ validity: '2033-01-01' }))).toEqual([
      {
        field: 'metadata.validity',
        message: 'La fecha de «Vigencia» no corresponde a ninguna de sus opciones (margen de 15 días)',
      },
    ]);
  });

  it('accepts a relative duration or an ISO date in a date-parsed DATE field', () => {
    expect(valueOf(validate({ nextReview: '2 semanas' }), 'nextReview')).toBe('2026-12-09T10:15:00.000Z');
    expect(valueOf(validate({ nextReview: '3 días' }), 'nextReview')).toBe('2026-11-28T10:15:00.000Z');
    expect(valueOf(validate({ nextReview: '2027-01-15' }), 'nextReview')).toBe('2027-01-15T00:00:00.000Z');
    expect(issues(validate({ nextReview: 'el mes que viene' }))[0]!.field).toBe('metadata.nextReview');
    expect(issues(validate({ nextReview: '2027-02-30' }))[0]!.field).toBe('metadata.nextReview');
  });
});

describe('record metadata: updates merge over the stored values', () => {
  const first = () =>
    stored(
      validate({ result: 'Apto con restricciones', restrictions: 'Gafas', observations: 'Primera visita' }),
    );

  it('keeps stored values of fields left out and re-prices the whole record', () => {
    const result = validateMetadata(
      certificateFields,
      { discount: { value: 3.58 } },
      { anchorDate: APPOINTMENT, previous: first() },
    );
    const metadata = stored(result);
    expect(metadata.observations!.value).toBe('Primera visita');
    expect(metadata.restrictions!.value).toBe('Gafas');
    expect(metadata.validity).toMatchObject({ value: '2036-11-25T10:15:00.000Z', selectedLabel: '10 años' });
    expect(metadata.net!.value).toBe(50);
    expect(metadata.total!.value).toBe(50);
  });

  it('drops the restrictions when the result no longer needs them', () => {
    const result = validateMetadata(
      certificateFields,
      { result: { value: 'Apto' } },
      { anchorDate: APPOINTMENT, previous: first() },
    );
    expect(Object.keys(stored(result))).not.toContain('restrictions');
  });

  it('clears an optional field sent empty', () => {
    const result = validateMetadata(
      certificateFields,
      { observations: { value: '' } },
      { anchorDate: APPOINTMENT, previous: first() },
    );
    expect(stored(result).observations!.value).toBe('');
  });

  it('validates the merged record: an update cannot break a required field', () => {
    const result = validateMetadata(
      certificateFields,
      { weight: { value: '' } },
      { anchorDate: APPOINTMENT, previous: first() },
    );
    expect(issues(result)).toEqual([
      { field: 'metadata.weight', message: 'El campo «Peso (kg)» es obligatorio' },
    ]);
  });
});
