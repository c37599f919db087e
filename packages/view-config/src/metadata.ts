import type { MetadataEntry, ViewField } from '@crm/contracts';
import { shownFieldNames, isConditionalTarget } from './conditions';
import { addDuration, matchDurationOption, parseIsoDate, parseRelativeDuration } from './durations';
import { metadataMessages as messages, TEXT_LENGTH_MESSAGE, TEXT_MAX_LENGTH } from './messages';
import { parseNumber } from './numbers';
import { findOption, isNumericField, optionLabel, optionValue } from './options';
import { computeViewTotals, isComputedPrice, type PriceTotals } from './pricing';
import { DEFAULT_CURRENCY, MAX_AMOUNT, PERCENTAGE_TAX_TYPE, TAX_TYPE_FIELD } from './schema';

/** What a client sends per field; only `value` counts (and `name`, which must match its key). */
export interface SubmittedEntry {
  value?: unknown;
  name?: unknown;
}

export interface MetadataIssue {
  /** `metadata.<field name>`, as the error body's `field`. */
  field: string;
  message: string;
}

export interface ValidateMetadataOptions {
  /** The appointment's date: relative durations ("10 años") count from it. */
  anchorDate: Date;
  /**
   * Stored entries of the record being updated. A field the client leaves out keeps its stored
   * value; the result is validated and priced as a whole again.
   */
  previous?: Readonly<Record<string, { value?: unknown }>>;
}

export type MetadataValidation =
  | { ok: true; metadata: Record<string, MetadataEntry>; totals: PriceTotals }
  | { ok: false; issues: MetadataIssue[] };

const MAX_NUMBER = 1e9;

type Normalized = { value: string | number; selectedLabel?: string } | { empty: true } | { error: string };

const isBlank = (value: unknown) =>
  value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A date-parsed value: a relative duration counted from the anchor, or an ISO date. */
function normalizeDate(field: ViewField, raw: unknown, anchor: Date): Normalized {
  if (isBlank(raw)) return { empty: true };
  const duration = field.parseOutput === 'date' ? parseRelativeDuration(raw) : undefined;
  if (duration) return { value: addDuration(anchor, duration).toISOString() };
  const date = parseIsoDate(raw);
  return date ? { value: date.toISOString() } : { error: messages.notADate(field.label) };
}

function normalizeNumber(field: ViewField, raw: unknown): Normalized {
  const parsed = parseNumber(raw);
  if (parsed.kind === 'empty') return { empty: true };
  if (parsed.kind === 'invalid') return { error: messages.notANumber(field.label) };
  if (field.price && parsed.value < 0) return { error: messages.negativeAmount(field.label) };
  if (Math.abs(parsed.value) > (field.price ? MAX_AMOUNT : MAX_NUMBER))
    return { error: messages.outOfRange(field.label) };
  return { value: parsed.value };
}

function normalizePicklist(field: ViewField, raw: unknown, anchor: Date): Normalized {
  if (isBlank(raw)) return { empty: true };
  if (typeof raw !== 'string' && typeof raw !== 'number') return { error: messages.notAnOption(field.label) };
  const options = field.options ?? [];
  if (field.parseOutput === 'date') {
    // A duration option ("10 años"), or, when a stored record is edited, the date it became:
    // it stands for the option whose date is within 15 days of it.
    let option = findOption(field, raw);
    if (!option) {
      const date = parseIsoDate(raw);
      if (!date) return { error: messages.notAnOption(field.label) };
      const matched = matchDurationOption(date, anchor, options.map(optionValue));
      if (matched === undefined) return { error: messages.durationNotMatched(field.label) };
      option = options.find((candidate) => optionValue(candidate) === matched)!;
    }
    const duration = parseRelativeDuration(optionValue(option))!;
    return { value: addDuration(anchor, duration).toISOString(), selectedLabel: optionLabel(option) };
  }
  const option = findOption(field, raw);
  if (!option) return { error: messages.notAnOption(field.label) };
  if (isNumericField(field)) {
    const amount = parseNumber(optionValue(option));
    return { value: amount.kind === 'number' ? amount.value : 0, selectedLabel: optionLabel(option) };
  }
  return { value: optionValue(option), selectedLabel: optionLabel(option) };
}

function normalizeText(field: ViewField, raw: unknown, anchor: Date): Normalized {
  if (field.parseOutput === 'date') return normalizeDate(field, raw, anchor);
  if (field.parseOutput === 'number') return normalizeNumber(field, raw);
  if (raw === undefined || raw === null) return { empty: true };
  if (typeof raw !== 'string') return { error: messages.notAText(field.label) };
  const text = raw.trim();
  if ([...text].length > TEXT_MAX_LENGTH) return { error: TEXT_LENGTH_MESSAGE };
  return text === '' ? { empty: true } : { value: text };
}

/** One field's raw value, normalised to what is stored (number, ISO instant, text, option value). */
export function normalizeFieldValue(field: ViewField, raw: unknown, anchorDate: Date): Normalized {
  switch (field.fieldType) {
    case 'PICKLIST':
      return normalizePicklist(field, raw, anchorDate);
    case 'NUMBER':
      return normalizeNumber(field, raw);
    case 'DATE':
      return normalizeDate(field, raw, anchorDate);
    case 'TEXT':
      return normalizeText(field, raw, anchorDate);
  }
}

/** The value stored for an optional field left empty: 0 for numbers and prices, else ''. */
const emptyValue = (field: ViewField): string | number =>
  isNumericField(field) && field.parseOutput !== 'date' ? 0 : '';

function entryOf(field: ViewField, value: string | number, selectedLabel?: string): MetadataEntry {
  return {
    name: field.name,
    label: field.label,
    type: field.fieldType,
    ...(field.parseOutput ? { parseOutput: field.parseOutput } : {}),
    value,
    ...(field.price
      ? { priceType: field.price.type, currency: field.price.currency ?? DEFAULT_CURRENCY }
      : {}),
    ...(selectedLabel !== undefined ? { selectedLabel } : {}),
  };
}

/**
 * Checks a record's metadata against its view configuration and returns what to store:
 * - unknown field names are refused, and so is an entry whose `name` differs from its key;
 * - a field left out takes its stored value (update) or its `defaultValue`; fields a form does not
 *   show (a conditional target whose condition does not hold) are not stored; a hidden field
 *   (`visible: false`, not conditional) always stores its `defaultValue`, whatever is sent;
 * - required fields that are shown must have a value;
 * - values are checked and normalised by type: numbers and prices (`"24,58"` accepted; an empty
 *   optional one is 0), texts 0–100 characters, picklist values one of the options (the option's
 *   label is stored as `selectedLabel`), dates ISO 8601, relative durations in date-parsed fields
 *   counted from `anchorDate`;
 * - NET and GROSS are computed here; whatever the client sent for them is ignored.
 */
export function validateMetadata(
  fields: readonly ViewField[],
  submitted: Readonly<Record<string, SubmittedEntry>>,
  { anchorDate, previous }: ValidateMetadataOptions,
): MetadataValidation {
  const issues: MetadataIssue[] = [];
  const issue = (name: string, message: string) => issues.push({ field: `metadata.${name}`, message });
  const byName = new Map(fields.map((field) => [field.name, field]));

  for (const [key, entry] of Object.entries(submitted)) {
    if (!byName.has(key)) issue(key, messages.unknownField(key));
    else if (entry?.name !== undefined && entry.name !== key) issue(key, messages.nameMismatch(key));
  }
  if (issues.length > 0) return { ok: false, issues };

  const rawValue = (field: ViewField): unknown => {
    if (field.visible === false && !isConditionalTarget(fields, field.name)) return field.defaultValue;
    // An entry without `value` counts as left out (JSON has no undefined).
    if (Object.hasOwn(submitted, field.name) && submitted[field.name]?.value !== undefined)
      return submitted[field.name]!.value;
    if (previous && Object.hasOwn(previous, field.name)) return previous[field.name]!.value;
    return field.defaultValue;
  };
  const raw = new Map(fields.map((field) => [field.name, rawValue(field)]));
  const shown = shownFieldNames(fields, (name) => {
    const value = raw.get(name);
    // A picklist parent is compared by its option value ("24.58" and 24.58 are the same choice).
    const parent = byName.get(name);
    const option = parent?.fieldType === 'PICKLIST' ? findOption(parent, value) : undefined;
    return option ? optionValue(option) : value;
  });

  const metadata: Record<string, MetadataEntry> = {};
  const amounts: Record<string, number> = {};
  let taxType: string | undefined;
  for (const field of fields) {
    const hidden = field.visible === false && !isConditionalTarget(fields, field.name);
    if (isComputedPrice(field) || (!shown.has(field.name) && !hidden)) continue;
    const normalized = normalizeFieldValue(field, raw.get(field.name), anchorDate);
    if ('error' in normalized) {
      issue(field.name, normalized.error);
      continue;
    }
    if ('empty' in normalized) {
      if (field.required && !hidden) {
        issue(field.name, messages.required(field.label));
        continue;
      }
      metadata[field.name] = entryOf(field, emptyValue(field));
    } else {
      metadata[field.name] = entryOf(field, normalized.value, normalized.selectedLabel);
    }
    const stored = metadata[field.name]!.value;
    if (field.price && typeof stored === 'number') amounts[field.name] = stored;
    if (field.name === TAX_TYPE_FIELD && typeof stored === 'string') taxType = stored;
  }
  if (issues.length > 0) return { ok: false, issues };

  const totals = computeViewTotals(fields, amounts, taxType);
  const priced = (type: 'DISCOUNT' | 'TAX') =>
    fields.find((field) => field.price?.type === type && field.name in amounts);
  if (totals.net < 0) issue(priced('DISCOUNT')!.name, messages.discountAboveBase(priced('DISCOUNT')!.label));
  const taxField = priced('TAX');
  if (taxField && taxType === PERCENTAGE_TAX_TYPE && amounts[taxField.name]! > 100)
    issue(taxField.name, messages.percentageAbove100(taxField.label));
  if (issues.length > 0) return { ok: false, issues };

  for (const field of fields) {
    if (field.price?.type === 'NET') metadata[field.name] = entryOf(field, totals.net);
    if (field.price?.type === 'GROSS') metadata[field.name] = entryOf(field, totals.gross);
  }
  return { ok: true, metadata, totals };
}

/**
 * The one message for an error answer: the text-length message when any text is too long (the
 * front end shows its own dialog for "0 and 100 characters"), else the first problem.
 */
export function summarizeIssues(issues: readonly MetadataIssue[]): string {
  return (
    (issues.find((problem) => problem.message === TEXT_LENGTH_MESSAGE) ?? issues[0])?.message ??
    'Datos del registro no válidos'
  );
}
