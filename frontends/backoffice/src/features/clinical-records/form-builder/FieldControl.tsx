import { useId } from 'react';
import type { ViewField } from '@crm/contracts';
import { durationHint, fieldView } from './field-view';

export interface FieldControlProps {
  field: ViewField;
  value: string;
  /** What a NET or GROSS field shows ("53.58", "54 EUR"). */
  computed?: string;
  anchorDate: Date;
  disabled?: boolean;
  onChange: (name: string, value: string) => void;
}

/** One configured field: its label (with an asterisk when required) and the control of its type. */
export function FieldControl({ field, value, computed, anchorDate, disabled, onChange }: FieldControlProps) {
  const view = fieldView(field);
  const id = `cr-field-${useId()}`;
  const hint = durationHint(field, value, anchorDate);
  const hintId = hint ? `${id}-hint` : undefined;
  const change = (next: string) => onChange(field.name, next);
  const priceClass = field.price ? ` cr-field--${field.price.type.toLowerCase()}` : '';
  const common = {
    id,
    name: field.name,
    required: view.required,
    disabled,
    'aria-describedby': hintId,
  };

  return (
    <div className={`wk-field cr-field cr-field--${view.kind}${priceClass}`}>
      <label className="wk-label" htmlFor={id}>
        {view.label}
        {view.required && (
          <span className="cr-field__required" aria-hidden="true">
            {' *'}
          </span>
        )}
      </label>
      {view.kind === 'select' ? (
        <select
          {...common}
          className="wk-input"
          value={value}
          onChange={(event) => change(event.target.value)}
        >
          <option value="">Seleccione una opción</option>
          {view.options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      ) : view.kind === 'computed' ? (
        <input
          id={id}
          name={field.name}
          className="wk-input cr-field__computed"
          value={computed ?? ''}
          readOnly
          aria-readonly="true"
          tabIndex={-1}
        />
      ) : (
        <input
          {...common}
          className="wk-input"
          // Numbers are typed as text so "24,58" is kept as typed; they coerce to numbers (SPEC §5).
          type={view.kind === 'date' ? 'date' : 'text'}
          inputMode={view.kind === 'number' ? 'decimal' : undefined}
          value={value}
          onChange={(event) => change(event.target.value)}
        />
      )}
      {hint && (
        <p className="cr-field__hint" id={hintId}>
          {hint}
        </p>
      )}
    </div>
  );
}
