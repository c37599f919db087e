/**
 * Server-provided form configuration (docs/product/clinical-records.md#view-configuration): the wire shape of
 * `GET /config/view?view=<name>`. The zod schema that checks a configuration's own rules (unique
 * names, conditional targets, price rules…) lives in `@crm/view-config`, next to the logic that uses it.
 */
export const FIELD_TYPES = ['NUMBER', 'TEXT', 'PICKLIST', 'DATE'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const PRICE_TYPES = ['BASE', 'DISCOUNT', 'TAX', 'NET', 'GROSS'] as const;
export type PriceType = (typeof PRICE_TYPES)[number];

export const PARSE_OUTPUTS = ['date', 'number'] as const;
export type ParseOutput = (typeof PARSE_OUTPUTS)[number];

/** The view whose form is the clinical record of an appointment. */
export const RECORDS_VIEW = 'doctor/appointments/:id';

/**
 * Field names are metadata keys in stored records, so they can never hold `$` or `.` (MongoDB
 * operators and paths) and stay short identifiers.
 */
export const FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,49}$/;

/** View names look like front-end route patterns: `doctor/appointments/:id`. */
export const VIEW_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9/:_-]{0,99}$/;

export type PicklistOption = string | { value: string; label: string };

export interface ViewField {
  name: string;
  label: string;
  fieldType: FieldType;
  required: boolean;
  defaultValue?: string | number | null;
  /** PICKLIST only: plain strings (value = label) or `{value, label}`. */
  options?: PicklistOption[];
  /** `false`: not shown (typically the target of a `conditionalField`, shown when its condition holds). */
  visible: boolean;
  parseOutput?: ParseOutput;
  price?: { type: PriceType; currency?: string };
  /**
   * When this field's value equals `ifSelected`, the field named `field` appears (and counts); a list
   * names several fields that appear together (a plain name is the original form and still valid).
   */
  conditionalField?: { ifSelected: string; field: string | string[] };
}

/** `GET /config/view` answer and `PUT /config/view` answer. */
export interface ViewConfigView {
  view: string;
  version: number;
  fields: ViewField[];
}
