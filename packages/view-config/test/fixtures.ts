import type { ViewField } from '@crm/contracts';
import { viewFieldsSchema } from '../src';

/** A small certificate form with every kind of field, conditional fields and every price type. */
export const certificateFields: ViewField[] = viewFieldsSchema.parse([
  {
    name: 'certificateType',
    label: 'Tipo de certificado',
    fieldType: 'PICKLIST',
    required: true,
    options: ['Permiso de conducir', 'Licencia de armas'],
    conditionalField: { ifSelected: 'Permiso de conducir', field: 'licenceGroup' },
  },
  {
    name: 'licenceGroup',
    label: 'Grupo',
    fieldType: 'PICKLIST',
    required: true,
    visible: false,
    options: ['Grupo 1', 'Grupo 2'],
  },
  { name: 'weight', label: 'Peso (kg)', fieldType: 'NUMBER', required: true, parseOutput: 'number' },
  { name: 'bloodPressure', label: 'Tensión arterial', fieldType: 'TEXT', required: false },
  {
    name: 'result',
    label: 'Resultado',
    fieldType: 'PICKLIST',
    required: true,
    options: ['Apto', 'No apto', 'Apto con restricciones'],
    conditionalField: { ifSelected: 'Apto con restricciones', field: 'restrictions' },
  },
  { name: 'restrictions', label: 'Restricciones', fieldType: 'TEXT', required: true, visible: false },
  {
    name: 'validity',
    label: 'Vigencia',
    fieldType: 'PICKLIST',
    required: true,
    parseOutput: 'date',
    options: ['10 años', '5 años', '6 meses'],
  },
  { name: 'nextReview', label: 'Próxima revisión', fieldType: 'DATE', required: false, parseOutput: 'date' },
  { name: 'observations', label: 'Observaciones', fieldType: 'TEXT', required: false },
  { name: 'centre', label: 'Centro', fieldType: 'TEXT', visible: false, defaultValue: 'CRM Las Palmas' },
  {
    name: 'checkupFee',
    label: 'Reconocimiento',
    fieldType: 'NUMBER',
    required: true,
    defaultValue: 19,
    price: { type: 'BASE', currency: 'EUR' },
  },
  {
    name: 'dgtFee',
    label: 'Tasa DGT',
    fieldType: 'PICKLIST',
    parseOutput: 'number',
    defaultValue: '0',
    options: [
      { value: '24.58', label: '10 años — 24,58 €' },
      { value: '4.92', label: '1 año — 4,92 €' },
      { value: '0', label: 'Exento' },
    ],
    price: { type: 'BASE' },
  },
  {
    name: 'dgtManagement',
    label: 'Gestión DGT',
    fieldType: 'NUMBER',
    defaultValue: 10,
    price: { type: 'BASE' },
  },
  { name: 'discount', label: 'Descuento', fieldType: 'NUMBER', defaultValue: 0, price: { type: 'DISCOUNT' } },
  {
    name: 'taxType',
    label: 'Tipo de impuesto',
    fieldType: 'PICKLIST',
    options: ['Porcentaje', 'Fijo'],
    defaultValue: 'Porcentaje',
  },
  { name: 'tax', label: 'Impuesto', fieldType: 'NUMBER', defaultValue: 0, price: { type: 'TAX' } },
  { name: 'net', label: 'Neto', fieldType: 'NUMBER', price: { type: 'NET', currency: 'EUR' } },
  { name: 'total', label: 'Total', fieldType: 'NUMBER', price: { type: 'GROSS' } },
]);

/** The appointment the record belongs to: durations count from here. */
export const APPOINTMENT = new Date('2026-11-25T10:15:00.000Z');

/** A complete, valid submission as the form sends it: `{name: {value}}`. */
export function submission(
  values: Record<string, unknown> = {},
): Record<string, { value: unknown; name?: string }> {
  const base: Record<string, unknown> = {
    certificateType: 'Licencia de armas',
    weight: '72,5',
    result: 'Apto',
    validity: '10 años',
    checkupFee: 19,
    dgtFee: '24.58',
    dgtManagement: '10',
    ...values,
  };
  return Object.fromEntries(Object.entries(base).map(([name, value]) => [name, { name, value }]));
}
