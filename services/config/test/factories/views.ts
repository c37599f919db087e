import { uniqueName } from '@crm/testing';

/** A view name no other test uses. */
export const freshView = (label = 'test') => `${uniqueName(label).replace(/_/g, '-')}/form`;

/** A small valid form: a result picklist with a conditional text, prices with NET and GROSS. */
export function smallForm(extraLabel = 'Resultado') {
  return [
    {
      name: 'result',
      label: extraLabel,
      fieldType: 'PICKLIST',
      required: true,
      options: ['Apto', 'No apto', 'Apto con restricciones'],
      conditionalField: { ifSelected: 'Apto con restricciones', field: 'restrictions' },
    },
    { name: 'restrictions', label: 'Restricciones', fieldType: 'TEXT', required: true, visible: false },
    {
      name: 'fee',
      label: 'Tarifa',
      fieldType: 'NUMBER',
      defaultValue: 19,
      price: { type: 'BASE', currency: 'EUR' },
    },
    { name: 'net', label: 'Neto', fieldType: 'NUMBER', price: { type: 'NET' } },
    { name: 'total', label: 'Total', fieldType: 'NUMBER', price: { type: 'GROSS' } },
  ];
}
