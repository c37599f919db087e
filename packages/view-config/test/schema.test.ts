import { viewConfigBody, viewFieldsSchema } from '../src';
import { certificateFields } from './fixtures';

type Input = Record<string, unknown>;
const text = (name: string, extra: Input = {}): Input => ({
  name,
  label: name || 'Sin nombre',
  fieldType: 'TEXT',
  ...extra,
});
const picklist = (name: string, options: unknown[], extra: Input = {}): Input => ({
  name,
  label: name,
  fieldType: 'PICKLIST',
  options,
  ...extra,
});
const price = (name: string, type: string, extra: Input = {}): Input => ({
  name,
  label: name,
  fieldType: 'NUMBER',
  price: { type },
  ...extra,
});

/** The messages of the issues a list of fields produces (empty when valid). */
function problems(fields: unknown): string[] {
  const result = viewFieldsSchema.safeParse(fields);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('view configuration schema', () => {
  it('accepts the certificate form and fills the defaults of required and visible', () => {
    expect(certificateFields).toHaveLength(18);
    const [first] = viewFieldsSchema.parse([{ name: 'a', label: 'A', fieldType: 'TEXT' }]);
    expect(first).toEqual({ name: 'a', label: 'A', fieldType: 'TEXT', required: false, visible: true });
  });

  it('wants a non-empty list of at most 100 fields inside {fields}', () => {
    expect(problems([])).toEqual([': Una vista necesita al menos un campo']);
    expect(problems(Array.from({ length: 101 }, (_, i) => text(`f${i}`)))).toHaveLength(1);
    expect(viewConfigBody.safeParse({}).success).toBe(false);
    expect(viewConfigBody.safeParse({ fields: [text('a')] }).success).toBe(true);
  });

  it('refuses repeated field names', () => {
    expect(problems([text('a'), text('b'), text('a')])).toEqual([
      '2.name: Los nombres de campo deben ser únicos: «a» se repite',
    ]);
  });

  it.each(['1abc', 'a.b', '$where', 'a-b', '', 'x'.repeat(51), '__proto__ '])(
    'refuses the field name %p (a metadata key in MongoDB)',
    (name) => {
      expect(problems([text(name)])).toHaveLength(1);
    },
  );

  it('refuses unknown keys, unknown field types and unknown price types', () => {
    expect(problems([{ ...text('a'), colour: 'red' }])).toHaveLength(1);
    expect(problems([text('a', { fieldType: 'BOOLEAN' })])).toEqual([
      '0.fieldType: fieldType debe ser NUMBER, TEXT, PICKLIST o DATE',
    ]);
    expect(problems([price('a', 'SURCHARGE')])).toEqual([
      '0.price.type: price.type debe ser BASE, DISCOUNT, TAX, NET o GROSS',
    ]);
  });

  it('requires options on a PICKLIST, only there, with unique values', () => {
    expect(problems([{ name: 'a', label: 'A', fieldType: 'PICKLIST' }])).toEqual([
      '0.options: Una lista (PICKLIST) necesita opciones',
    ]);
    expect(problems([picklist('a', [])])).toEqual(['0.options: Una lista necesita al menos una opción']);
    expect(problems([text('a', { options: ['x'] })])).toEqual([
      '0.options: Solo las listas (PICKLIST) tienen opciones',
    ]);
    expect(problems([picklist('a', ['x', { value: 'x', label: 'Equis' }])])).toEqual([
      '0.options: Los valores de las opciones deben ser únicos',
    ]);
    expect(problems([picklist('a', ['x', { value: 'y', label: 'Y' }])])).toEqual([]);
    expect(problems([picklist('a', [{ value: 'y' }])])).toHaveLength(1);
  });

  it('checks that a conditional target exists, is not the field itself and depends on one parent only', () => {
    expect(
      problems([picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field: 'ghost' } })]),
    ).toEqual(['0.conditionalField.field: El campo condicional «ghost» no existe']);
    expect(problems([picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field: 'a' } })])).toEqual([
      '0.conditionalField: Un campo no puede ser condicional de sí mismo',
    ]);
    expect(
      problems([
        picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field: 'c' } }),
        picklist('b', ['x'], { conditionalField: { ifSelected: 'x', field: 'c' } }),
        text('c'),
      ]),
    ).toEqual(['1.conditionalField.field: «c» ya depende de otro campo']);
  });

  it('accepts a list of conditional targets that appear together, checking each one', () => {
    const parent = (field: unknown) => picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field } });
    expect(problems([parent(['b', 'c']), text('b'), text('c')])).toEqual([]);
    expect(problems([parent(['b', 'ghost']), text('b')])).toEqual([
      '0.conditionalField.field.1: El campo condicional «ghost» no existe',
    ]);
    expect(problems([parent(['b', 'a']), text('b')])).toEqual([
      '0.conditionalField: Un campo no puede ser condicional de sí mismo',
    ]);
    expect(problems([parent(['b', 'b']), text('b')])).toEqual([
      '0.conditionalField: Un campo condicional no puede repetirse en la lista',
    ]);
    expect(problems([parent(['b', 'n']), text('b'), price('n', 'GROSS')])).toEqual([
      '0.conditionalField.field.1: Los totales NET y GROSS no pueden ser condicionales',
    ]);
    expect(problems([parent([]), text('b')])).toEqual([
      '0.conditionalField.field: conditionalField.field necesita al menos un campo',
    ]);
    expect(problems([parent(['1b'])])).toContain(
      '0.conditionalField.field.0: El nombre del campo debe empezar por una letra y tener solo letras, números y _ (máximo 50)',
    );
    expect(problems([parent(7)])).toEqual([
      '0.conditionalField.field: conditionalField.field es un nombre de campo o una lista de nombres de campo',
    ]);
  });

  it('lets a field depend on one parent only, whether named alone or in a list', () => {
    expect(
      problems([
        picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field: ['b', 'c'] } }),
        picklist('d', ['y'], { conditionalField: { ifSelected: 'y', field: 'c' } }),
        text('b'),
        text('c'),
      ]),
    ).toEqual(['1.conditionalField.field: «c» ya depende de otro campo']);
    const cycle = problems([
      picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field: ['c', 'b'] } }),
      picklist('b', ['x'], { conditionalField: { ifSelected: 'x', field: ['a'] } }),
      text('c'),
    ]);
    expect(cycle.some((problem) => /ciclo/.test(problem))).toBe(true);
  });

  it('wants ifSelected to be one of the parent picklist options', () => {
    expect(
      problems([picklist('a', ['x'], { conditionalField: { ifSelected: 'y', field: 'b' } }), text('b')]),
    ).toEqual(['0.conditionalField: ifSelected debe ser una de las opciones de la lista']);
  });

  it('refuses conditions that form a cycle', () => {
    const cycle = problems([
      picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field: 'b' } }),
      picklist('b', ['x'], { conditionalField: { ifSelected: 'x', field: 'a' } }),
    ]);
    expect(cycle.length).toBeGreaterThan(0);
    expect(cycle[0]).toMatch(/ciclo/);
  });

  it('allows at most one NET, one GROSS and one TAX field', () => {
    expect(problems([price('n1', 'NET'), price('n2', 'NET')])).toEqual([
      '1.price.type: Solo puede haber un campo NET',
    ]);
    expect(problems([price('g1', 'GROSS'), price('g2', 'GROSS')])).toEqual([
      '1.price.type: Solo puede haber un campo GROSS',
    ]);
    expect(problems([price('t1', 'TAX'), price('t2', 'TAX')])).toEqual([
      '1.price.type: Solo puede haber un campo TAX',
    ]);
    expect(
      problems([price('b1', 'BASE'), price('b2', 'BASE'), price('d1', 'DISCOUNT'), price('d2', 'DISCOUNT')]),
    ).toEqual([]);
  });

  it('keeps prices in NUMBER or numeric PICKLIST fields, totals in NUMBER fields, one currency per view', () => {
    expect(problems([text('a', { price: { type: 'BASE' } })])).toEqual([
      '0.fieldType: Un precio es un campo NUMBER o PICKLIST',
    ]);
    expect(problems([picklist('a', ['1'], { price: { type: 'NET' } })])).toEqual([
      '0.fieldType: Los totales NET y GROSS son campos NUMBER (los calcula el servidor)',
    ]);
    expect(problems([picklist('a', ['diez'], { price: { type: 'BASE' } })])).toEqual([
      '0.options: Las opciones de esta lista deben ser números',
    ]);
    expect(problems([picklist('a', ['-5'], { price: { type: 'BASE' } })])).toEqual([
      '0.options: Los importes no pueden ser negativos',
    ]);
    expect(
      problems([
        price('a', 'BASE', { price: { type: 'BASE', currency: 'EUR' } }),
        price('b', 'BASE', { price: { type: 'BASE', currency: 'USD' } }),
      ]),
    ).toEqual(['0.price.currency: Todos los precios de una vista deben tener la misma moneda']);
    expect(problems([price('a', 'BASE', { price: { type: 'BASE', currency: 'eur' } })])).toHaveLength(1);
  });

  it('does not let NET or GROSS be conditional (they are always computed)', () => {
    expect(
      problems([
        picklist('a', ['x'], { conditionalField: { ifSelected: 'x', field: 'n' } }),
        price('n', 'NET'),
      ]),
    ).toEqual(['0.conditionalField.field: Los totales NET y GROSS no pueden ser condicionales']);
  });

  it('matches parseOutput with the field type, and wants durations as options of a date picklist', () => {
    expect(problems([{ name: 'a', label: 'A', fieldType: 'NUMBER', parseOutput: 'date' }])).toEqual([
      '0.parseOutput: parseOutput date no se aplica a un campo NUMBER',
    ]);
    expect(problems([{ name: 'a', label: 'A', fieldType: 'DATE', parseOutput: 'number' }])).toHaveLength(1);
    expect(problems([picklist('a', ['10 años', 'para siempre'], { parseOutput: 'date' })])).toEqual([
      '0.options: Las opciones de una lista con parseOutput date deben ser duraciones como «10 años» o «6 meses»',
    ]);
    expect(
      problems([picklist('a', ['10 años', '6 meses', '2 semanas', '3 días'], { parseOutput: 'date' })]),
    ).toEqual([]);
  });

  it('wants a default value that fits its field', () => {
    expect(problems([picklist('a', ['x'], { defaultValue: 'y' })])).toEqual([
      '0.defaultValue: El valor por defecto debe ser una de las opciones',
    ]);
    expect(problems([price('a', 'BASE', { defaultValue: 'diecinueve' })])).toEqual([
      '0.defaultValue: El valor por defecto debe ser un número',
    ]);
    expect(problems([{ name: 'a', label: 'A', fieldType: 'DATE', defaultValue: 'mañana' }])).toHaveLength(1);
    expect(problems([text('a', { defaultValue: 'x'.repeat(101) })])).toHaveLength(1);
    expect(
      problems([
        picklist('a', [{ value: '24.58', label: 'x' }], { price: { type: 'BASE' }, defaultValue: 24.58 }),
      ]),
    ).toEqual([]);
  });

  it('bounds labels and option texts to 100 characters', () => {
    expect(problems([text('a', { label: 'x'.repeat(101) })])).toHaveLength(1);
    expect(problems([text('a', { label: '   ' })])).toHaveLength(1);
    expect(problems([picklist('a', ['x'.repeat(101)])])).toHaveLength(1);
  });
});
