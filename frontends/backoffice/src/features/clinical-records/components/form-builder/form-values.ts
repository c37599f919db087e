import type { MetadataEntry, ViewField } from '@crm/contracts';
import {
  followingOption,
  findOption,
  matchDurationOption,
  optionValue,
  parseIsoDate,
  relativeDurationToDate,
} from '@crm/view-config';
import { isTypedAsNumber } from './field-view';

/**
 * What the form holds while the user types: one string per field, as the inputs show it
 * (a picklist holds its option's value, a DATE field `yyyy-mm-dd`, a number its text).
 */
export type FormValues = Record<string, string>;

/** `yyyy-mm-dd` of an instant, the value of an `<input type="date">` (UTC, as the server reads it back). */
export const toDateInput = (date: Date): string => date.toISOString().slice(0, 10);

/**
 * A stored number as a number field shows it to be edited: a decimal comma, as the doctor typed it
 * ("72,5", not "72.5"), no thousands separator (the field reads its text back with `parseNumber`).
 */
const numberInput = (value: number): string => String(value).replace('.', ',');

/** A configured `defaultValue` as the input shows it. */
function defaultInput(field: ViewField, anchorDate: Date): string {
  const value = field.defaultValue;
  if (value === undefined || value === null) return '';
  if (field.fieldType === 'PICKLIST') {
    const option = findOption(field, value);
    return option ? optionValue(option) : '';
  }
  if (field.fieldType === 'DATE') {
    // A DATE default may be a duration ("1 año"): the input needs the day it stands for.
    const date = relativeDurationToDate(value, anchorDate) ?? parseIsoDate(value);
    return date ? toDateInput(date) : '';
  }
  if (typeof value === 'number' && isTypedAsNumber(field)) return numberInput(value);
  return String(value);
}

/** The values of a new form: every field at its default (or empty). */
export function defaultValues(fields: readonly ViewField[], anchorDate: Date): FormValues {
  return Object.fromEntries(fields.map((field) => [field.name, defaultInput(field, anchorDate)]));
}

/**
 * A stored value as the input shows it. A date picklist stored the date its duration became: it
 * maps back to the option whose date is within 15 days of it
 * (docs/product/clinical-records.md#relative-durations), or to nothing.
 */
export function storedToInput(field: ViewField, stored: unknown, anchorDate: Date): string {
  if (stored === undefined || stored === null) return '';
  if (field.fieldType === 'PICKLIST' && field.parseOutput === 'date') {
    const direct = findOption(field, stored);
    if (direct) return optionValue(direct);
    const date = parseIsoDate(stored);
    if (!date) return '';
    return matchDurationOption(date, anchorDate, (field.options ?? []).map(optionValue)) ?? '';
  }
  if (field.fieldType === 'PICKLIST') {
    const option = findOption(field, stored);
    return option ? optionValue(option) : '';
  }
  if (field.fieldType === 'DATE' || field.parseOutput === 'date') {
    const date = parseIsoDate(stored);
    return date ? toDateInput(date) : String(stored);
  }
  if (typeof stored === 'number' && isTypedAsNumber(field)) return numberInput(stored);
  return String(stored);
}

/**
 * The values of the edit form of a stored record: each field's stored value, or its default when
 * the record has none (a sub-field that was not shown, a field added to the configuration later).
 */
export function valuesFromRecord(
  fields: readonly ViewField[],
  metadata: Readonly<Record<string, Pick<MetadataEntry, 'value'> | undefined>>,
  anchorDate: Date,
): FormValues {
  const values = defaultValues(fields, anchorDate);
  for (const field of fields) {
    const entry = metadata[field.name];
    if (entry && Object.hasOwn(entry, 'value'))
      values[field.name] = storedToInput(field, entry.value, anchorDate);
  }
  return values;
}

/**
 * The values after `name` changed to `value`: a price picklist with an option named after the choice
 * follows it (validity "10 años" → the DGT fee "10 años — 24,58 €"); the others keep their value.
 */
export function withChange(
  fields: readonly ViewField[],
  values: FormValues,
  name: string,
  value: string,
): FormValues {
  const next = { ...values, [name]: value };
  const changed = fields.find((field) => field.name === name);
  if (changed?.fieldType !== 'PICKLIST' || changed.price) return next;
  for (const field of fields) {
    if (field.name === name) continue;
    const option = followingOption(field, value);
    if (option) next[field.name] = optionValue(option);
  }
  return next;
}
