import { useEffect, useId, useRef } from 'react';
import type { ViewField } from '@crm/contracts';
import { durationHint, fieldProblem, fieldView, TEXT_LIMIT, textCounter } from './field-view';

export interface FieldControlProps {
  field: ViewField;
  value: string;
  /** What a NET or GROSS field shows ("53.58", "54 EUR"). */
  computed?: string;
  anchorDate: Date;
  disabled?: boolean;
  onChange: (name: string, value: string) => void;
}

/**
 * One configured field: its label (with an asterisk when required) and the control of its type.
 * A number field that holds no number says so underneath at once and refuses the form's submission
 * (its message is the input's custom validity); a text field shows its 0–100 counter while typing.
 */
export function FieldControl({ field, value, computed, anchorDate, disabled, onChange }: FieldControlProps) {
  const view = fieldView(field);
  const id = `cr-field-${useId()}`;
  const input = useRef<HTMLInputElement>(null);
  const hint = durationHint(field, value, anchorDate);
  const problem = fieldProblem(field, value);
  const counted = view.kind === 'text';
  const hintId = hint ? `${id}-hint` : undefined;
  const problemId = problem ? `${id}-error` : undefined;
  const counterId = counted ? `${id}-counter` : undefined;
  const describedBy = [problemId, hintId, counterId].filter(Boolean).join(' ') || undefined;
  const change = (next: string) => onChange(field.name, next);
  const priceClass = field.price ? ` cr-field--${field.price.type.toLowerCase()}` : '';
  const errorClass = problem ? ' wk-field--error' : '';
  const common = {
    id,
    name: field.name,
    required: view.required,
    disabled,
    'aria-describedby': describedBy,
  };

  // The browser refuses to submit the form while an input has a custom validity message.
  useEffect(() => {
    input.current?.setCustomValidity(problem ?? '');
  }, [problem]);

  return (
    <div className={`wk-field cr-field cr-field--${view.kind}${priceClass}${errorClass}`}>
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
          ref={input}
          className="wk-input"
          // Numbers are typed as text so "24,58" is kept as typed; they must read as numbers.
          type={view.kind === 'date' ? 'date' : 'text'}
          inputMode={view.kind === 'number' ? 'decimal' : undefined}
          maxLength={counted ? TEXT_LIMIT : undefined}
          aria-invalid={problem ? true : undefined}
          value={value}
          onChange={(event) => change(event.target.value)}
        />
      )}
      {problem && (
        <p className="wk-error-line cr-field__error" id={problemId} role="alert">
          {problem}
        </p>
      )}
      {hint && (
        <p className="cr-field__hint" id={hintId}>
          {hint}
        </p>
      )}
      {counted && (
        <p
          className={`cr-field__counter${value.length >= TEXT_LIMIT ? ' cr-field__counter--full' : ''}`}
          id={counterId}
        >
          <span className="wk-visually-hidden">Caracteres: </span>
          {textCounter(value)}
        </p>
      )}
    </div>
  );
}
