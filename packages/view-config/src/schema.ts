import { z } from 'zod';
import {
  FIELD_NAME_PATTERN,
  FIELD_TYPES,
  PARSE_OUTPUTS,
  PRICE_TYPES,
  viewNameField,
  type ViewConfigView,
  type ViewField,
} from '@crm/contracts';
import { conditionalTargets } from './conditions';
import { parseIsoDate, parseRelativeDuration } from './durations';
import { TEXT_MAX_LENGTH } from './messages';
import { parseNumber } from './numbers';
import { findOption, optionValue } from './options';

export const DEFAULT_CURRENCY = 'EUR';
/** The field whose value says how TAX applies: "Porcentaje", anything else is a flat amount. */
export const TAX_TYPE_FIELD = 'taxType';
export const PERCENTAGE_TAX_TYPE = 'Porcentaje';
export const MAX_FIELDS = 100;
/** Prices above this are typing mistakes, not prices of a medical check-up. */
export const MAX_AMOUNT = 1_000_000;

/** A 1–100 character text; `subject` names it in the messages ("la etiqueta"). */
const shortText = (subject: string) => {
  const Subject = subject.charAt(0).toUpperCase() + subject.slice(1);
  return z
    .string({ error: `${Subject} debe ser un texto` })
    .trim()
    .min(1, `Falta ${subject}`)
    .max(TEXT_MAX_LENGTH, `${Subject} no puede superar los ${TEXT_MAX_LENGTH} caracteres`);
};

const fieldName = z.string({ error: 'El nombre del campo es obligatorio' }).regex(FIELD_NAME_PATTERN, {
  error: 'El nombre del campo debe empezar por una letra y tener solo letras, números y _ (máximo 50)',
});

const optionSchema = z.union(
  [shortText('la opción'), z.strictObject({ value: shortText('el valor'), label: shortText('la etiqueta') })],
  {
    error: 'Cada opción es un texto o un objeto {value, label}',
  },
);

/**
 * One field, shape only (docs/product/clinical-records.md#view-configuration). Unknown keys are refused so
 * typos do not pass silently.
 */
export const viewFieldSchema = z.strictObject({
  name: fieldName,
  label: shortText('la etiqueta'),
  fieldType: z.enum(FIELD_TYPES, { error: 'fieldType debe ser NUMBER, TEXT, PICKLIST o DATE' }),
  required: z.boolean().default(false),
  defaultValue: z.union([z.string().max(TEXT_MAX_LENGTH), z.number().finite(), z.null()]).optional(),
  options: z.array(optionSchema).min(1, 'Una lista necesita al menos una opción').max(100).optional(),
  visible: z.boolean().default(true),
  parseOutput: z.enum(PARSE_OUTPUTS, { error: 'parseOutput debe ser date o number' }).optional(),
  price: z
    .strictObject({
      type: z.enum(PRICE_TYPES, { error: 'price.type debe ser BASE, DISCOUNT, TAX, NET o GROSS' }),
      currency: z
        .string()
        .regex(/^[A-Z]{3}$/, 'La moneda es un código ISO 4217 como EUR')
        .optional(),
    })
    .optional(),
  conditionalField: z
    .strictObject({
      ifSelected: shortText('ifSelected'),
      // One field name (the original form), or a list of fields that appear together.
      field: z.union(
        [
          fieldName,
          z
            .array(fieldName)
            .min(1, 'conditionalField.field necesita al menos un campo')
            .max(MAX_FIELDS, `conditionalField.field tiene como máximo ${MAX_FIELDS} campos`),
        ],
        { error: 'conditionalField.field es un nombre de campo o una lista de nombres de campo' },
      ),
    })
    .optional(),
});

type Issue = { path: (string | number)[]; message: string };

const PARSE_OUTPUT_TYPES: Record<(typeof PARSE_OUTPUTS)[number], readonly string[]> = {
  date: ['TEXT', 'PICKLIST', 'DATE'],
  number: ['NUMBER', 'TEXT', 'PICKLIST'],
};

function defaultValueProblem(field: ViewField): string | undefined {
  const value = field.defaultValue;
  if (value === undefined || value === null || value === '') return undefined;
  if (field.fieldType === 'PICKLIST') {
    return findOption(field, value) ? undefined : 'El valor por defecto debe ser una de las opciones';
  }
  if (field.fieldType === 'NUMBER' || field.parseOutput === 'number') {
    return parseNumber(value).kind === 'number' ? undefined : 'El valor por defecto debe ser un número';
  }
  if (field.fieldType === 'DATE' || field.parseOutput === 'date') {
    return parseIsoDate(value) || parseRelativeDuration(value)
      ? undefined
      : 'El valor por defecto debe ser una fecha o una duración';
  }
  return undefined;
}

/** Rules of one field on its own. */
function fieldIssues(field: ViewField, index: number): Issue[] {
  const issues: Issue[] = [];
  const at = (key: string, message: string) => issues.push({ path: [index, key], message });
  if (field.fieldType === 'PICKLIST') {
    if (!field.options) at('options', 'Una lista (PICKLIST) necesita opciones');
  } else if (field.options) {
    at('options', 'Solo las listas (PICKLIST) tienen opciones');
  }
  const values = (field.options ?? []).map(optionValue);
  if (new Set(values).size !== values.length) at('options', 'Los valores de las opciones deben ser únicos');

  if (field.parseOutput && !PARSE_OUTPUT_TYPES[field.parseOutput].includes(field.fieldType)) {
    at('parseOutput', `parseOutput ${field.parseOutput} no se aplica a un campo ${field.fieldType}`);
  }
  if (
    field.fieldType === 'PICKLIST' &&
    field.parseOutput === 'date' &&
    values.some((value) => !parseRelativeDuration(value))
  ) {
    at(
      'options',
      'Las opciones de una lista con parseOutput date deben ser duraciones como «10 años» o «6 meses»',
    );
  }
  const numericPicklist =
    field.fieldType === 'PICKLIST' && (field.parseOutput === 'number' || field.price !== undefined);
  if (numericPicklist) {
    const amounts = values.map(parseNumber);
    if (amounts.some((amount) => amount.kind !== 'number'))
      at('options', 'Las opciones de esta lista deben ser números');
    else if (field.price && amounts.some((amount) => amount.kind === 'number' && amount.value < 0)) {
      at('options', 'Los importes no pueden ser negativos');
    }
  }

  if (field.price) {
    if (field.fieldType !== 'NUMBER' && field.fieldType !== 'PICKLIST')
      at('fieldType', 'Un precio es un campo NUMBER o PICKLIST');
    if ((field.price.type === 'NET' || field.price.type === 'GROSS') && field.fieldType !== 'NUMBER') {
      at('fieldType', 'Los totales NET y GROSS son campos NUMBER (los calcula el servidor)');
    }
    if (field.parseOutput === 'date') at('parseOutput', 'Un precio no puede ser una fecha');
  }

  const targets = conditionalTargets(field);
  if (targets.includes(field.name)) {
    at('conditionalField', 'Un campo no puede ser condicional de sí mismo');
  }
  if (new Set(targets).size !== targets.length) {
    at('conditionalField', 'Un campo condicional no puede repetirse en la lista');
  }
  if (
    field.conditionalField &&
    field.fieldType === 'PICKLIST' &&
    !findOption({ ...field, price: undefined, parseOutput: undefined }, field.conditionalField.ifSelected)
  ) {
    at('conditionalField', 'ifSelected debe ser una de las opciones de la lista');
  }

  const defaultProblem = defaultValueProblem(field);
  if (defaultProblem) at('defaultValue', defaultProblem);
  return issues;
}

/** Rules across fields: unique names, conditional targets, one NET/GROSS/TAX, one currency. */
function crossFieldIssues(fields: ViewField[]): Issue[] {
  const issues: Issue[] = [];
  const indexByName = new Map<string, number>();
  fields.forEach((field, index) => {
    if (indexByName.has(field.name))
      issues.push({
        path: [index, 'name'],
        message: `Los nombres de campo deben ser únicos: «${field.name}» se repite`,
      });
    else indexByName.set(field.name, index);
  });

  const parentOf = new Map<string, string>();
  fields.forEach((field, index) => {
    const listed = Array.isArray(field.conditionalField?.field);
    conditionalTargets(field).forEach((target, position) => {
      if (target === field.name) return;
      // A plain name is reported at `conditionalField.field`, a list entry at `conditionalField.field.<n>`.
      const path = ['conditionalField', 'field', ...(listed ? [position] : [])];
      const report = (message: string) => issues.push({ path: [index, ...path], message });
      const targetIndex = indexByName.get(target);
      if (targetIndex === undefined) return report(`El campo condicional «${target}» no existe`);
      if (parentOf.has(target)) {
        // The same name twice in one list is reported once, by fieldIssues.
        if (parentOf.get(target) !== field.name) report(`«${target}» ya depende de otro campo`);
        return;
      }
      const priceType = fields[targetIndex]!.price?.type;
      if (priceType === 'NET' || priceType === 'GROSS')
        return report('Los totales NET y GROSS no pueden ser condicionales');
      parentOf.set(target, field.name);
    });
  });
  // A chain of conditions must end: a → b → a would make neither ever appear.
  for (const start of parentOf.keys()) {
    const seen = new Set<string>([start]);
    for (let parent = parentOf.get(start); parent !== undefined; parent = parentOf.get(parent)) {
      if (seen.has(parent)) {
        issues.push({
          path: [indexByName.get(start)!, 'name'],
          message: `Las condiciones de «${start}» forman un ciclo`,
        });
        break;
      }
      seen.add(parent);
    }
  }

  for (const type of ['NET', 'GROSS', 'TAX'] as const) {
    const indexes = fields.flatMap((field, index) => (field.price?.type === type ? [index] : []));
    for (const index of indexes.slice(1))
      issues.push({ path: [index, 'price', 'type'], message: `Solo puede haber un campo ${type}` });
  }
  const currencies = new Set(
    fields.filter((field) => field.price).map((field) => field.price!.currency ?? DEFAULT_CURRENCY),
  );
  if (currencies.size > 1) {
    const index = fields.findIndex((field) => field.price);
    issues.push({
      path: [index, 'price', 'currency'],
      message: 'Todos los precios de una vista deben tener la misma moneda',
    });
  }
  return issues;
}

/** The fields of a view, with every rule of a usable form configuration checked. */
export const viewFieldsSchema = z
  .array(viewFieldSchema, { error: 'fields debe ser una lista de campos' })
  .min(1, 'Una vista necesita al menos un campo')
  .max(MAX_FIELDS, `Una vista tiene como máximo ${MAX_FIELDS} campos`)
  .superRefine((fields, ctx) => {
    const issues = [...fields.flatMap(fieldIssues), ...crossFieldIssues(fields)];
    for (const issue of issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });

/** `PUT /config/view?view=<name>` body. */
export const viewConfigBody = z.object({ fields: viewFieldsSchema });

/** A stored or served configuration (what `GET /config/view` answers). */
export const viewConfigSchema = z.object({
  view: viewNameField,
  version: z.number().int().min(1),
  fields: viewFieldsSchema,
});

// The schemas produce exactly the wire types of @crm/contracts.
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const fieldTypesMatch: Equal<z.output<typeof viewFieldSchema>, ViewField> = true;
const configTypesMatch: Equal<z.output<typeof viewConfigSchema>, ViewConfigView> = true;
void fieldTypesMatch;
void configTypesMatch;
