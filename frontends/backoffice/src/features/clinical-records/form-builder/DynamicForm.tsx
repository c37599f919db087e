import { useMemo, useState, type FormEvent, type ReactNode } from 'react';
import type { ViewField } from '@crm/contracts';
import { FieldControl } from './FieldControl';
import type { FormValues } from './form-values';
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
 * keystroke, required fields checked by the browser before `onSubmit`.
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
    if (!busy) onSubmit(values);
  };
  const change = (name: string, value: string) => setValues((old) => ({ ...old, [name]: value }));

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
