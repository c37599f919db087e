import type { PriceType, ViewField } from '@crm/contracts';
import { roundCents } from './numbers';
import { PERCENTAGE_TAX_TYPE } from './schema';

export interface PriceInputs {
  /** Amounts of the BASE fields. */
  base: readonly number[];
  /** Amounts of the DISCOUNT fields. */
  discount: readonly number[];
  /** The TAX field's value: a percentage when `taxType` is "Porcentaje", else a flat amount. */
  tax?: number;
  taxType?: string;
}

export interface PriceTotals {
  /** Σ BASE − Σ DISCOUNT, in cents. */
  net: number;
  /** The tax amount, in cents. */
  tax: number;
  /** net + tax, rounded to a whole number. */
  gross: number;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/**
 * docs/product/clinical-records.md#pricing: net = sum of BASE − sum of DISCOUNT; if taxType is "Porcentaje",
 * tax = net × TAX / 100, otherwise TAX is a flat amount; gross = net + tax, rounded to a whole number.
 * Example (docs/product/centre-profile.md#prices): 19 + 24.58 + 10 → net 53.58, tax 0, gross 54.
 */
export function computeTotals({ base, discount, tax = 0, taxType }: PriceInputs): PriceTotals {
  const net = roundCents(sum(base) - sum(discount));
  const taxAmount = roundCents(taxType?.trim() === PERCENTAGE_TAX_TYPE ? (net * tax) / 100 : tax);
  return { net, tax: taxAmount, gross: Math.round(roundCents(net + taxAmount)) };
}

/** Price fields the server computes; whatever a client sends for them is ignored. */
export const COMPUTED_PRICE_TYPES: readonly PriceType[] = ['NET', 'GROSS'];

export const isComputedPrice = (field: Pick<ViewField, 'price'>): boolean =>
  field.price !== undefined && COMPUTED_PRICE_TYPES.includes(field.price.type);

/**
 * Totals of a form from the amounts of its shown price fields (by name) and its taxType value.
 * The form uses it to display NET and GROSS as the user types; the server to store them.
 */
export function computeViewTotals(
  fields: readonly ViewField[],
  amounts: Readonly<Record<string, number>>,
  taxType?: string,
): PriceTotals {
  const of = (type: PriceType) =>
    fields
      .filter((field) => field.price?.type === type && field.name in amounts)
      .map((field) => amounts[field.name]!);
  return computeTotals({ base: of('BASE'), discount: of('DISCOUNT'), tax: sum(of('TAX')), taxType });
}
