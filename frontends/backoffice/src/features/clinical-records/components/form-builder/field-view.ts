import type { ViewField } from '@crm/contracts';
import {
  isComputedPrice,
  isNumericField,
  optionLabel,
  optionValue,
  parseNumber,
  relativeDurationToDate,
  TEXT_MAX_LENGTH,
} from '@crm/view-config';
import { formatCentreDate } from './centre-time';

/** Which control renders a field. */
export type ControlKind = 'number' | 'text' | 'select' | 'date' | 'computed';

/** Everything the React form needs to render one field, decided here so it can be tested. */
export interface FieldView {
  name: string;
  label: string;
  kind: ControlKind;
  /** Shows an asterisk and sets the input's `required` attribute. */
  required: boolean;
  /** NET and GROSS: computed, never typed. */
  readOnly: boolean;
  options: { value: string; label: string }[];
}

function kindOf(field: ViewField): ControlKind {
  if (isComputedPrice(field)) return 'computed';
  switch (field.fieldType) {
    case 'PICKLIST':
      return 'select';
    case 'DATE':
      return 'date';
    case 'NUMBER':
      return 'number';
    case 'TEXT':
      // A TEXT parsed as a number is typed as one (it coerces to a number anyway).
      return isNumericField(field) ? 'number' : 'text';
  }
}

/** Whether the field is typed as a number (a decimal keyboard, "72,5"). */
export const isTypedAsNumber = (field: ViewField): boolean => kindOf(field) === 'number';

export function fieldView(field: ViewField): FieldView {
  const kind = kindOf(field);
  return {
    name: field.name,
    label: field.label,
    kind,
    required: kind !== 'computed' && field.required,
    readOnly: kind === 'computed',
    options: (field.options ?? []).map((option) => ({
      value: optionValue(option),
      label: optionLabel(option),
    })),
  };
}

/**
 * Under a date-parsed field holding a duration ("10 años"): the day it becomes, counted from the
 * appointment, so the doctor sees what will be stored ("Hasta el 25/11/2036").
 */
export function durationHint(
  field: ViewField,
  value: string | undefined,
  anchorDate: Date,
): string | undefined {
  if (field.parseOutput !== 'date' || !value) return undefined;
  const date = relativeDurationToDate(value, anchorDate);
  return date ? `Hasta el ${formatCentreDate(date)}` : undefined;
}

/** What a number field says under itself while it holds something that is not a number. */
export const NOT_A_NUMBER_MESSAGE = 'Escriba un número (por ejemplo 72 o 72,5)';
export const NEGATIVE_AMOUNT_MESSAGE = 'El importe no puede ser negativo';

/**
 * What is wrong with a value as typed, shown under the field at once and blocking the save (never a
 * silent 0): a number field ("abc", "1e3") must hold a number as the server reads it (`parseNumber`:
 * "72", "72.5" or "72,5"; empty is left to `required`), and a price cannot be negative.
 */
export function fieldProblem(field: ViewField, value: string | undefined): string | undefined {
  if (kindOf(field) !== 'number') return undefined;
  const parsed = parseNumber(value ?? '');
  if (parsed.kind === 'invalid') return NOT_A_NUMBER_MESSAGE;
  if (parsed.kind === 'number' && field.price && parsed.value < 0) return NEGATIVE_AMOUNT_MESSAGE;
  return undefined;
}

/** The typing limit of a text field (0–100 characters), and its counter ("12/100"). */
export const TEXT_LIMIT = TEXT_MAX_LENGTH;
export const textCounter = (value: string | undefined): string => `${(value ?? '').length}/${TEXT_LIMIT}`;
