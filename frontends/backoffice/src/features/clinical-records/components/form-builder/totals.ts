import type { ViewField } from '@crm/contracts';
import {
  coerceNumber,
  computeViewTotals,
  DEFAULT_CURRENCY,
  findOption,
  isComputedPrice,
  optionValue,
  TAX_TYPE_FIELD,
  type PriceTotals,
} from '@crm/view-config';
import { formatAmount } from '@crm/web-kit/format';
import type { FormValues } from './form-values';
import { isHiddenConstant, visibleFieldNames } from './visibility';

/** What a price field is worth as typed: its option's amount for a picklist, else the number, fallback 0. */
function amountOf(field: ViewField, raw: unknown): number {
  if (field.fieldType === 'PICKLIST') {
    const option = findOption(field, raw);
    return option ? coerceNumber(optionValue(option)) : 0;
  }
  return coerceNumber(raw);
}

/**
 * The live totals of the form (docs/product/clinical-records.md#pricing), exactly as the records service will
 * store them: the amounts of the price fields the form shows (plus hidden constant ones at their default),
 * the `taxType` value, then `computeViewTotals` of @crm/view-config (the server's own function).
 */
export function formTotals(fields: readonly ViewField[], values: FormValues): PriceTotals {
  const shown = visibleFieldNames(fields, values);
  const amounts: Record<string, number> = {};
  let taxType: string | undefined;
  for (const field of fields) {
    const constant = isHiddenConstant(fields, field);
    if (!shown.has(field.name) && !constant) continue;
    const raw = constant ? field.defaultValue : values[field.name];
    if (field.price && !isComputedPrice(field)) amounts[field.name] = amountOf(field, raw);
    if (field.name === TAX_TYPE_FIELD && typeof raw === 'string') taxType = raw;
  }
  return computeViewTotals(fields, amounts, taxType);
}

/** A price field's currency; EUR when the configuration names none. */
export const currencyOf = (field: ViewField): string => field.price?.currency ?? DEFAULT_CURRENCY;

/**
 * What a read-only computed field shows, in Spanish like the option prices beside it: NET with cents
 * ("53,58 €"), GROSS the rounded whole amount ("54 €"). Undefined for any other field.
 */
export function computedDisplay(field: ViewField, totals: PriceTotals): string | undefined {
  if (field.price?.type === 'NET') return formatAmount(totals.net, currencyOf(field));
  if (field.price?.type === 'GROSS') return formatAmount(totals.gross, currencyOf(field), 0);
  return undefined;
}
