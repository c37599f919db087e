import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { ViewField } from '@crm/contracts';
import { fieldProblem } from './field-view';
import { FieldControl } from './FieldControl';
import { withChange, type FormValues } from './form-values';
import { computedDisplay, formTotals } from './totals';
import { visibleFieldNames } from './visibility';
import './dynamic-form.css';

export const EMPTY_CONFIGURATION_MESSAGE = 'No hay campos configurados para esta vista.';

export interface DynamicFormProps {
  fields: readonly ViewField[];
  /** The appointment's date: relative durations count from it. */
  anchorDate: Date;
  initialValues: FormValues;
  submitLabel: string;
  /** True while the save runs: inputs and buttons are disabled. */
  busy?: boolean;
  onSubmit: (values: FormValues) => void;
  /** Extra buttons next to the submit button ("Cerrar"). */
  actions?: ReactNode;
  /** Accessible name of the form. */
  label?: string;
}

/**
 * A form built from a view configuration: the fields shown for the current values (conditional
 * sub-fields appear when their parent equals `ifSelected`), NET and GROSS recomputed on every
 * keystroke, required fields checked by the browser before `onSubmit`, and no submission while a
 * number field holds something that is not a number (its error shows under it as it is typed).
 * What was typed stays in the form whatever the save's answer (the parent keeps it mounted).
 */
export function DynamicForm({
  fields,
  anchorDate,
  initialValues,
  submitLabel,
  busy = false,
  onSubmit,
  actions,
  label,
}: DynamicFormProps) {
  const [values, setValues] = useState<FormValues>(initialValues);
  const shown = useMemo(() => visibleFieldNames(fields, values), [fields, values]);
  const totals = useMemo(() => formTotals(fields, values), [fields, values]);

  if (fields.length === 0) {
    return (
      <div className="cr-form cr-form--empty">
        <p role="status">{EMPTY_CONFIGURATION_MESSAGE}</p>
        {actions && <div className="cr-form__actions">{actions}</div>}
      </div>
    );
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // The browser already refuses a form whose inputs say they are invalid; this is the same rule.
    const invalid = fields.some((field) => shown.has(field.name) && fieldProblem(field, values[field.name]));
    if (!busy && !invalid) onSubmit(values);
  };
  const change = (name: string, value: string) => setValues((old) => withChange(fields, old, name, value));

  return (
    <form className="cr-form" onSubmit={submit} aria-label={label} aria-busy={busy}>
      <div className="cr-form__fields">
        {fields
          .filter((field) => shown.has(field.name))
          .map((field) => (
            <FieldControl
              key={field.name}
              field={field}
              value={values[field.name] ?? ''}
              computed={computedDisplay(field, totals)}
              anchorDate={anchorDate}
              disabled={busy}
              onChange={change}
            />
          ))}
      </div>
      <div className="cr-form__actions">
        <button type="submit" className="wk-button" disabled={busy}>
          {submitLabel}
        </button>
        {actions}
      </div>
    </form>
  );
}
