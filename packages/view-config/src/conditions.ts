import type { ViewField } from '@crm/contracts';

/**
 * The fields a field's `conditionalField` shows: `field` names one (the original form) or a list of
 * them that appear together (e.g. both DGT fees only for a driving licence).
 */
export function conditionalTargets(field: Pick<ViewField, 'conditionalField'>): string[] {
  const target = field.conditionalField?.field;
  if (target === undefined) return [];
  return typeof target === 'string' ? [target] : [...target];
}

/**
 * Which fields a form shows for the given values (docs/product/clinical-records.md#conditional-fields: a
 * conditional sub-field appears only when the parent's value equals the configured ifSelected trigger):
 * - the target of a `conditionalField` is shown only while its parent is shown and the parent's
 *   value equals `ifSelected` (whatever its own `visible` says);
 * - any other field is shown unless `visible: false`.
 * `valueOf` gives a field's current raw value (a picklist's option value).
 */
export function shownFieldNames(
  fields: readonly ViewField[],
  valueOf: (name: string) => unknown,
): Set<string> {
  const byName = new Map(fields.map((field) => [field.name, field]));
  const parentOf = new Map<string, { parent: string; ifSelected: string }>();
  for (const field of fields) {
    for (const target of conditionalTargets(field))
      parentOf.set(target, { parent: field.name, ifSelected: field.conditionalField!.ifSelected });
  }
  const memo = new Map<string, boolean>();
  const isShown = (name: string, visiting: Set<string>): boolean => {
    const known = memo.get(name);
    if (known !== undefined) return known;
    const condition = parentOf.get(name);
    let shown: boolean;
    if (!condition) shown = byName.get(name)?.visible !== false;
    else if (visiting.has(name))
      shown = false; // a cycle (refused by the schema) never shows
    else {
      visiting.add(name);
      shown =
        isShown(condition.parent, visiting) &&
        normalizeChoice(valueOf(condition.parent)) === condition.ifSelected;
    }
    memo.set(name, shown);
    return shown;
  };
  return new Set(fields.filter((field) => isShown(field.name, new Set())).map((field) => field.name));
}

/** True for the target of some field's `conditionalField`. */
export function isConditionalTarget(fields: readonly ViewField[], name: string): boolean {
  return fields.some((field) => conditionalTargets(field).includes(name));
}

const normalizeChoice = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : undefined;
