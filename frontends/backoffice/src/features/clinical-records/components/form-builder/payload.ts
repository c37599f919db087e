import type { MetadataEntry, ViewField } from '@crm/contracts';
import {
  coerceNumber,
  isComputedPrice,
  isNumericField,
  relativeDurationToDate,
  type PriceTotals,
} from '@crm/view-config';
import type { FormValues } from './form-values';
import { formTotals } from './totals';
import { isHiddenConstant, visibleFieldNames } from './visibility';

/**
 * One metadata entry as the form sends it (docs/product/clinical-records.md#payloads): a stored entry without
 * what the server adds (the server only reads `value` and `name`).
 */
export type MetadataEntryPayload = Omit<MetadataEntry, 'selectedLabel' | 'currency'>;

export type MetadataPayload = Record<string, MetadataEntryPayload>;

/** `POST /records`. */
export interface CreateRecordPayload {
  userId: string;
  dateId: string;
  metadata: MetadataPayload;
}

/** `PUT /records/:id`. */
export interface UpdateRecordPayload {
  metadata: MetadataPayload;
}

const isEmpty = (raw: string | undefined) => raw === undefined || raw.trim() === '';

/**
 * The value sent for one field:
 * - NET and GROSS: the live totals (the server computes them again and keeps its own);
 * - a relative duration ("10 años") in a date-parsed field: the date it stands for, counted from the
 *   appointment's date;
 * - numbers, prices and numeric picklists: a number, fallback 0;
 * - anything else as typed (the server trims texts and checks their length).
 */
function outputValue(field: ViewField, raw: string, anchorDate: Date, totals: PriceTotals): string | number {
  if (field.price?.type === 'NET') return totals.net;
  if (field.price?.type === 'GROSS') return totals.gross;
  if (field.parseOutput === 'date') return relativeDurationToDate(raw, anchorDate)?.toISOString() ?? raw;
  if (isNumericField(field)) return coerceNumber(raw);
  return raw;
}

/**
 * The metadata of a form: one entry per field the record holds, keyed by name. A conditional
 * sub-field that is not shown is left out (the server would not store it anyway); a hidden field
 * without condition goes with its default. With `omitEmpty` (updates), fields left empty are left
 * out, so they keep their stored value.
 */
export function buildMetadata(
  fields: readonly ViewField[],
  values: FormValues,
  anchorDate: Date,
  { omitEmpty = false } = {},
): MetadataPayload {
  const shown = visibleFieldNames(fields, values);
  const totals = formTotals(fields, values);
  const metadata: MetadataPayload = {};
  for (const field of fields) {
    const constant = isHiddenConstant(fields, field);
    if (!shown.has(field.name) && !constant) continue;
    const raw = constant ? String(field.defaultValue ?? '') : (values[field.name] ?? '');
    if (omitEmpty && !isComputedPrice(field) && isEmpty(raw)) continue;
    metadata[field.name] = {
      name: field.name,
      label: field.label,
      type: field.fieldType,
      ...(field.parseOutput ? { parseOutput: field.parseOutput } : {}),
      value: outputValue(field, raw, anchorDate, totals),
      ...(field.price ? { priceType: field.price.type } : {}),
    };
  }
  return metadata;
}

/** The appointment a new record belongs to. */
export interface RecordTarget {
  /** The patient (`pacientId` of the appointment). */
  userId: string;
  /** The appointment's id. */
  dateId: string;
  /** The appointment's date: durations count from it. */
  date: Date;
}

/** `POST /records` body: `{userId, dateId, metadata}` with every field of the form. */
export function createRecordPayload(
  fields: readonly ViewField[],
  values: FormValues,
  target: RecordTarget,
): CreateRecordPayload {
  return {
    userId: target.userId,
    dateId: target.dateId,
    metadata: buildMetadata(fields, values, target.date),
  };
}

/** `PUT /records/:id` body: `{metadata}` without the fields left empty. */
export function updateRecordPayload(
  fields: readonly ViewField[],
  values: FormValues,
  anchorDate: Date,
): UpdateRecordPayload {
  return { metadata: buildMetadata(fields, values, anchorDate, { omitEmpty: true }) };
}
