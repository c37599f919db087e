import { describe, expect, it } from '@jest/globals';
import { CENTRE_PROFILE_SEED } from '@crm/contracts';
import { medicalCertificateFields } from '@crm/view-config';
import {
  checkConfig,
  newField,
  newFieldProblem,
  withCondition,
  withDefault,
  withOption,
  withPrice,
} from './config-draft';

const seeded = medicalCertificateFields(CENTRE_PROFILE_SEED.prices);
const extraReport = seeded.find((field) => field.name === 'extraReport')!;

describe('the form configuration editor', () => {
  it('accepts the seeded form as it is', () => {
    expect(checkConfig(seeded)).toEqual({ byField: new Map(), general: [] });
  });

  it('adds a priced option with a decimal point, labelled as typed', () => {
    const changed = withOption(extraReport, '25,5', 'Informe ampliado — 25,50 €');
    expect(changed.options?.at(-1)).toEqual({ value: '25.5', label: 'Informe ampliado — 25,50 €' });
    const fields = seeded.map((field) => (field.name === 'extraReport' ? changed : field));
    expect(checkConfig(fields).byField.size).toBe(0);
  });

  it("names the field of a broken rule, with the server's Spanish message", () => {
    const index = seeded.findIndex((field) => field.name === 'extraReport');
    const broken = seeded.map((field, i) => (i === index ? withOption(field, '10', '') : field));
    const issues = checkConfig(broken);
    expect([...issues.byField.keys()]).toEqual([index]);
    expect(issues.byField.get(index)!.join(' ')).toMatch(/opci|valor/i);
  });

  it('refuses a new field without a usable name, or with a taken one', () => {
    expect(newFieldProblem('mi campo', 'Mi campo', seeded)).toMatch(/sin espacios/);
    expect(newFieldProblem('weight', 'Peso', seeded)).toBe('Ya existe un campo «weight»');
    expect(newFieldProblem('allergies', 'Alergias', seeded)).toBeUndefined();
    expect(newField('allergies', 'Alergias', 'PICKLIST')).toEqual({
      name: 'allergies',
      label: 'Alergias',
      fieldType: 'PICKLIST',
      required: false,
      visible: true,
      options: [],
    });
  });

  it('sets price, default and condition, and removes them when emptied', () => {
    const weight = seeded.find((field) => field.name === 'weight')!;
    expect(withPrice(weight, 'BASE').price).toEqual({ type: 'BASE' });
    expect(withPrice(withPrice(weight, 'BASE'), '')).not.toHaveProperty('price');
    expect(withDefault(weight, '72,5').defaultValue).toBe(72.5);
    expect(withDefault(weight, '')).not.toHaveProperty('defaultValue');
    expect(withCondition(extraReport, '10', 'observations, weight').conditionalField).toEqual({
      ifSelected: '10',
      field: ['observations', 'weight'],
    });
    expect(withCondition(extraReport, '', '')).not.toHaveProperty('conditionalField');
  });
});
