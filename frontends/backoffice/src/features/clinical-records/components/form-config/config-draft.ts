import type { FieldType, PicklistOption, PriceType, ViewField } from '@crm/contracts';
import { FIELD_NAME_PATTERN } from '@crm/contracts/form-fields';
import { viewConfigBody } from '@crm/view-config';
import { ApiError } from '@crm/web-kit';

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  TEXT: 'Texto',
  NUMBER: 'Número',
  PICKLIST: 'Lista de opciones',
  DATE: 'Fecha',
};

export const PRICE_TYPE_LABELS: Record<PriceType, string> = {
  BASE: 'Importe (suma)',
  DISCOUNT: 'Descuento (resta)',
  TAX: 'Impuesto',
  NET: 'Importe neto (calculado)',
  GROSS: 'Total (calculado)',
};

/** Problems of a configuration: by field index, and the rest (the list as a whole). */
export interface ConfigIssues {
  byField: Map<number, string[]>;
  general: string[];
}

function group(issues: Array<{ path: readonly PropertyKey[]; message: string }>): ConfigIssues {
  const result: ConfigIssues = { byField: new Map(), general: [] };
  for (const { path, message } of issues) {
    const [root, index] = path;
    if (root === 'fields' && typeof index === 'number') {
      result.byField.set(index, [...(result.byField.get(index) ?? []), message]);
    } else if (!result.general.includes(message)) result.general.push(message);
  }
  return result;
}

/** The server's own rules (`@crm/view-config`), checked as the admin edits. */
export function checkConfig(fields: readonly ViewField[]): ConfigIssues {
  const parsed = viewConfigBody.safeParse({ fields });
  return parsed.success ? { byField: new Map(), general: [] } : group(parsed.error.issues);
}

/** A refused save: `field` is the path in the body (`fields.3.options`). */
export function serverIssues(error: ApiError): ConfigIssues {
  const list = error.errors.length > 0 ? error.errors : [{ message: error.message }];
  return group(
    list.map(({ field, message }) => ({
      path: (field ?? '').split('.').map((key) => (/^\d+$/.test(key) ? Number(key) : key)),
      message,
    })),
  );
}

export const hasIssues = (issues: ConfigIssues) => issues.general.length > 0 || issues.byField.size > 0;

/** A new field as the admin names it; a list starts without options (they are added next). */
export function newField(name: string, label: string, fieldType: FieldType): ViewField {
  return {
    name: name.trim(),
    label: label.trim(),
    fieldType,
    required: false,
    visible: true,
    ...(fieldType === 'PICKLIST' ? { options: [] } : {}),
  };
}

/** Spanish message for a new field's name, or undefined when it can be added. */
export function newFieldProblem(
  name: string,
  label: string,
  fields: readonly ViewField[],
): string | undefined {
  if (!FIELD_NAME_PATTERN.test(name.trim()))
    return 'El nombre interno debe empezar por una letra y tener solo letras, números o «_» (sin espacios)';
  if (fields.some((field) => field.name === name.trim())) return `Ya existe un campo «${name.trim()}»`;
  if (!label.trim()) return 'La etiqueta es obligatoria';
  return undefined;
}

/** "24,58" → 24.58; anything else stays as typed (the rules then say what is wrong). */
export function typedNumber(text: string): number | string {
  const normalized = text.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(normalized) ? Number(normalized) : text;
}

/** A new option: `{value, label}` when the text differs from the value, else the plain value. */
export function withOption(field: ViewField, value: string, label: string): ViewField {
  const trimmedValue = value.trim();
  const numeric = field.price !== undefined || field.parseOutput === 'number';
  // Amounts are stored with a decimal point, whatever the admin typed ("25,5" → "25.5").
  const stored = numeric ? String(typedNumber(trimmedValue)) : trimmedValue;
  const text = label.trim();
  const option: PicklistOption = text && text !== stored ? { value: stored, label: text } : stored;
  return { ...field, options: [...(field.options ?? []), option] };
}

export function withoutOption(field: ViewField, index: number): ViewField {
  return { ...field, options: (field.options ?? []).filter((_, i) => i !== index) };
}

export function withPrice(field: ViewField, type: PriceType | ''): ViewField {
  const { price, ...rest } = field;
  return type ? { ...rest, price: { ...price, type } } : rest;
}

/** The default as typed: empty removes it; numbers and prices take a number. */
export function withDefault(field: ViewField, text: string): ViewField {
  const { defaultValue: _old, ...rest } = field;
  if (text === '') return rest;
  const numeric = field.fieldType === 'NUMBER' || field.price !== undefined || field.parseOutput === 'number';
  return { ...rest, defaultValue: numeric ? typedNumber(text) : text };
}

/** The condition: when this field's value is `ifSelected`, the fields named (comma separated) appear. */
export function withCondition(field: ViewField, ifSelected: string, targets: string): ViewField {
  const { conditionalField: _old, ...rest } = field;
  const names = targets
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!ifSelected && names.length === 0) return rest;
  return { ...rest, conditionalField: { ifSelected, field: names.length === 1 ? names[0]! : names } };
}

export const conditionTargets = (field: ViewField): string =>
  [field.conditionalField?.field ?? []].flat().join(', ');
