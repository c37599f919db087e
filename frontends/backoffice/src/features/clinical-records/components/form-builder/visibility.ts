import type { ViewField } from '@crm/contracts';
import { isConditionalTarget, shownFieldNames } from '@crm/view-config';
import type { FormValues } from './form-values';

/**
 * The fields the form renders for the current values: a conditional sub-field only while its parent
 * equals `ifSelected` (docs/product/clinical-records.md#conditional-fields), any other field unless `visible:
 * false`. The same rule the server applies (`shownFieldNames`), fed with the values as typed (a picklist
 * holds its option value).
 */
export function visibleFieldNames(fields: readonly ViewField[], values: FormValues): Set<string> {
  return shownFieldNames(fields, (name) => values[name]);
}

/**
 * A field that is never shown but still stored with its default (hidden, and no condition can show
 * it). The server ignores what a client sends for it, so the form uses its default too.
 */
export const isHiddenConstant = (fields: readonly ViewField[], field: ViewField): boolean =>
  field.visible === false && !isConditionalTarget(fields, field.name);
