import type { PicklistOption, ViewField } from '@crm/contracts';
import { parseNumber } from './numbers';

export const optionValue = (option: PicklistOption): string =>
  typeof option === 'string' ? option : option.value;
export const optionLabel = (option: PicklistOption): string =>
  typeof option === 'string' ? option : option.label;

/** Picklists whose values are amounts (price picklists, `parseOutput: 'number'`) compare as numbers. */
export function isNumericField(field: Pick<ViewField, 'fieldType' | 'parseOutput' | 'price'>): boolean {
  return field.fieldType === 'NUMBER' || field.parseOutput === 'number' || field.price !== undefined;
}

/** The option a submitted value stands for: exact value, or the same amount for numeric picklists. */
export function findOption(
  field: Pick<ViewField, 'options' | 'fieldType' | 'parseOutput' | 'price'>,
  value: unknown,
): PicklistOption | undefined {
  const options = field.options ?? [];
  if (isNumericField(field)) {
    const wanted = parseNumber(value);
    if (wanted.kind !== 'number') return undefined;
    return options.find((option) => {
      const candidate = parseNumber(optionValue(option));
      return candidate.kind === 'number' && candidate.value === wanted.value;
    });
  }
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return options.find((option) => optionValue(option) === text);
}

/** The names an option's label gives before its price: "10 años — 24,58 €" → ["10 años"]. */
const optionNames = (option: PicklistOption): string[] =>
  optionLabel(option)
    .split(' — ')[0]!
    .split(' / ')
    .map((name) => name.trim().toLowerCase());

/**
 * The option of a price picklist named after a choice made in another field: choosing "10 años" as
 * the certificate's validity picks the DGT fee "10 años — 24,58 €". Undefined when no option has
 * that name (a validity with no DGT fee of its own, or a field that is not a price picklist).
 */
export function followingOption(
  field: Pick<ViewField, 'options' | 'fieldType' | 'price'>,
  choice: string,
): PicklistOption | undefined {
  if (field.fieldType !== 'PICKLIST' || !field.price || !choice.trim()) return undefined;
  const wanted = choice.trim().toLowerCase();
  return (field.options ?? []).find((option) => optionNames(option).includes(wanted));
}
