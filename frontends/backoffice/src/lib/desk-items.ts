import type { RecordView } from '@crm/contracts';
import { CHECKUP_FEE_FIELD } from '@crm/view-config';

/** One line the desk payment dialog proposes: what it is (the record field's label) and its amount. */
export interface DeskItem {
  label: string;
  /** Integer cents; negative for a discount. */
  amountCents: number;
}

/**
 * A record's price value (euros: `24.58`, or a text such as `"24,58"` from an older record) in
 * integer cents; undefined when it is not an amount.
 */
export function priceCents(value: unknown): number | undefined {
  const amount =
    typeof value === 'number'
      ? value
      : typeof value === 'string'
        ? Number(value.trim().replace(',', '.'))
        : NaN;
  if (!Number.isFinite(amount) || (typeof value === 'string' && value.trim() === '')) return undefined;
  // 24.58 * 100 is 2457.9999999999995: rounding gives the cents back.
  return Math.round(amount * 100);
}

/**
 * The record's extra items for the desk payment (docs/product/payments.md#desk-payments): its price
 * fields that add to the check-up (BASE, other than the check-up itself) and its discounts, when not
 * zero, in the record's order. The check-up comes from the appointment's price; computed totals (net,
 * gross) and the tax are not items.
 */
export function recordExtraItems(record: Pick<RecordView, 'metadata'> | null | undefined): DeskItem[] {
  if (!record) return [];
  const items: DeskItem[] = [];
  for (const entry of Object.values(record.metadata ?? {})) {
    if (entry.name === CHECKUP_FEE_FIELD) continue;
    if (entry.priceType !== 'BASE' && entry.priceType !== 'DISCOUNT') continue;
    const cents = priceCents(entry.value);
    if (!cents || cents < 0) continue;
    items.push({ label: entry.label, amountCents: entry.priceType === 'DISCOUNT' ? -cents : cents });
  }
  return items;
}

/** 1950 → "19,50", as the amount field shows and `centsOf` reads it. */
export const amountText = (cents: number) => (cents / 100).toFixed(2).replace('.', ',');
