import type { ViewField } from '@crm/contracts';
import { conditionalTargets, isConditionalTarget, shownFieldNames, viewFieldsSchema } from '../src';

const fields: ViewField[] = viewFieldsSchema.parse([
  {
    name: 'a',
    label: 'A',
    fieldType: 'PICKLIST',
    options: ['x', 'y'],
    conditionalField: { ifSelected: 'x', field: 'b' },
  },
  {
    name: 'b',
    label: 'B',
    fieldType: 'PICKLIST',
    options: ['p', 'q'],
    conditionalField: { ifSelected: 'q', field: 'c' },
  },
  { name: 'c', label: 'C', fieldType: 'TEXT' },
  { name: 'hidden', label: 'H', fieldType: 'TEXT', visible: false },
  { name: 'plain', label: 'P', fieldType: 'TEXT' },
]);

const shown = (values: Record<string, unknown>) =>
  [...shownFieldNames(fields, (name) => values[name])].sort();

describe('which fields a form shows (conditional sub-fields)', () => {
  it('shows a conditional target only while its parent equals ifSelected, whatever its own visible says', () => {
    expect(shown({ a: 'y' })).toEqual(['a', 'plain']);
    expect(shown({ a: 'x' })).toEqual(['a', 'b', 'plain']);
    expect(shown({ a: ' x ' })).toEqual(['a', 'b', 'plain']);
  });

  it('follows chains: a grandchild appears only when every parent up the chain holds', () => {
    expect(shown({ a: 'x', b: 'q' })).toEqual(['a', 'b', 'c', 'plain']);
    expect(shown({ a: 'y', b: 'q' })).toEqual(['a', 'plain']);
  });

  it('never shows a visible: false field that is not conditional', () => {
    expect(shown({ a: 'x', b: 'q', hidden: 'text' })).not.toContain('hidden');
  });

  it('shows every field of a list target together, and hides them together', () => {
    const listed: ViewField[] = viewFieldsSchema.parse([
      {
        name: 'kind',
        label: 'Tipo',
        fieldType: 'PICKLIST',
        options: ['driving', 'weapons'],
        conditionalField: { ifSelected: 'driving', field: ['fee', 'management'] },
      },
      { name: 'fee', label: 'Tasa', fieldType: 'NUMBER', visible: false },
      { name: 'management', label: 'Gestión', fieldType: 'NUMBER' },
      { name: 'other', label: 'Otro', fieldType: 'TEXT' },
    ]);
    const shownFor = (kind?: string) => [
      ...shownFieldNames(listed, (name) => (name === 'kind' ? kind : undefined)),
    ];
    expect(shownFor('driving')).toEqual(['kind', 'fee', 'management', 'other']);
    expect(shownFor('weapons')).toEqual(['kind', 'other']);
    expect(shownFor(undefined)).toEqual(['kind', 'other']);
    expect(conditionalTargets(listed[0]!)).toEqual(['fee', 'management']);
    expect(conditionalTargets(fields[0]!)).toEqual(['b']);
    expect(conditionalTargets(listed[3]!)).toEqual([]);
    expect(isConditionalTarget(listed, 'management')).toBe(true);
  });

  it('tells conditional targets apart', () => {
    expect(['a', 'b', 'c', 'hidden'].map((name) => isConditionalTarget(fields, name))).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });
});
