import type { MetadataEntry, RecordView } from '@crm/contracts';
import { formatAmount, formatNumber } from '@crm/web-kit/format';
import { formatCentreDate } from './form-builder/centre-time';

/**
 * The metadata columns of the record list: one per field of the first record, in its order
 * (docs/product/clinical-records.md#record-list).
 */
export function metadataColumns(records: readonly RecordView[]): { name: string; label: string }[] {
  const first = records[0];
  if (!first) return [];
  return Object.entries(first.metadata).map(([name, entry]) => ({ name, label: entry?.label || name }));
}

/**
 * A stored metadata value as a table cell: a picklist's label ("10 años"), a date as dd/MM/yyyy at
 * the centre, amounts and numbers in Spanish ("54 €", "53,58 €", "72,5"), anything else as stored.
 */
export function metadataCellText(entry: MetadataEntry | undefined): string {
  if (!entry || entry.value === undefined || entry.value === null || entry.value === '') return '';
  const amount = typeof entry.value === 'number' ? entry.value : undefined;
  if (entry.priceType === 'GROSS' && amount !== undefined)
    return formatAmount(amount, entry.currency ?? 'EUR', 0);
  if (entry.selectedLabel) return entry.selectedLabel;
  if (entry.type === 'DATE' || entry.parseOutput === 'date')
    return formatCentreDate(String(entry.value)) || String(entry.value);
  if (entry.priceType && amount !== undefined) return formatAmount(amount, entry.currency ?? 'EUR');
  if (amount !== undefined) return formatNumber(amount);
  return String(entry.value);
}

/** A 24-hex id (a record's id), as opposed to a patient's name. */
export const isRecordId = (text: string | undefined): text is string => /^[0-9a-f]{24}$/i.test(text ?? '');
