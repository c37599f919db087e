import { useState } from 'react';
import type { PriceType, ViewField } from '@crm/contracts';
import { PRICE_TYPES } from '@crm/contracts/form-fields';
import { optionLabel, optionValue } from '@crm/view-config';
import {
  conditionTargets,
  FIELD_TYPE_LABELS,
  PRICE_TYPE_LABELS,
  withCondition,
  withDefault,
  withOption,
  withoutOption,
  withPrice,
} from './config-draft';

interface Props {
  field: ViewField;
  problems: readonly string[];
  onChange(field: ViewField): void;
  onRemove(): void;
}

/** One field of the configuration: label, required, shown, default, price, options and condition. */
export function FieldEditor({ field, problems, onChange, onRemove }: Props) {
  const [newValue, setNewValue] = useState('');
  const [newLabel, setNewLabel] = useState('');
  // As typed ("a, "), so a comma can be followed by the next name; the field keeps the parsed list.
  const [targets, setTargets] = useState(() => conditionTargets(field));
  const id = `fc-${field.name}`;
  const addOption = () => {
    if (!newValue.trim()) return;
    onChange(withOption(field, newValue, newLabel));
    setNewValue('');
    setNewLabel('');
  };

  return (
    <details
      className={`fc-field${problems.length > 0 ? ' fc-field--error' : ''}`}
      open={problems.length > 0 || undefined}
    >
      <summary>
        <span className="fc-field__label">{field.label}</span>{' '}
        <span className="fc-field__meta">
          ({field.name} · {FIELD_TYPE_LABELS[field.fieldType]}
          {field.price ? ` · ${PRICE_TYPE_LABELS[field.price.type]}` : ''})
        </span>
      </summary>
      <fieldset className="fc-field__body" aria-label={`Campo ${field.name}`}>
        <label htmlFor={`${id}-label`}>Etiqueta</label>
        <input
          id={`${id}-label`}
          className="wk-input"
          value={field.label}
          onChange={(e) => onChange({ ...field, label: e.target.value })}
        />
        <div className="fc-field__checks">
          <label>
            <input
              type="checkbox"
              checked={field.required}
              onChange={(e) => onChange({ ...field, required: e.target.checked })}
            />{' '}
            Obligatorio
          </label>
          <label>
            <input
              type="checkbox"
              checked={field.visible}
              onChange={(e) => onChange({ ...field, visible: e.target.checked })}
            />{' '}
            Visible siempre (si no, solo cuando otro campo lo muestra)
          </label>
        </div>
        <label htmlFor={`${id}-default`}>Valor por defecto</label>
        <input
          id={`${id}-default`}
          className="wk-input"
          value={field.defaultValue == null ? '' : String(field.defaultValue)}
          onChange={(e) => onChange(withDefault(field, e.target.value))}
        />
        <label htmlFor={`${id}-price`}>Precio</label>
        <select
          id={`${id}-price`}
          className="wk-input"
          value={field.price?.type ?? ''}
          onChange={(e) => onChange(withPrice(field, e.target.value as PriceType | ''))}
        >
          <option value="">No es un precio</option>
          {PRICE_TYPES.map((type) => (
            <option key={type} value={type}>
              {PRICE_TYPE_LABELS[type]}
            </option>
          ))}
        </select>
        {field.fieldType === 'PICKLIST' && (
          <div className="fc-options">
            <p className="fc-options__title">Opciones</p>
            <ul aria-label={`Opciones de ${field.label}`}>
              {(field.options ?? []).map((option, index) => (
                <li key={`${optionValue(option)}-${index}`}>
                  <span>
                    {optionLabel(option)}
                    {optionLabel(option) !== optionValue(option) && (
                      <span className="fc-field__meta"> (valor {optionValue(option)})</span>
                    )}
                  </span>
                  <button
                    type="button"
                    className="wk-button wk-button--secondary"
                    onClick={() => onChange(withoutOption(field, index))}
                  >
                    Quitar<span className="wk-visually-hidden"> {optionLabel(option)}</span>
                  </button>
                </li>
              ))}
            </ul>
            <div className="fc-options__new">
              <label htmlFor={`${id}-new-value`}>
                {field.price ? 'Nueva opción: importe' : 'Nueva opción: valor'}
              </label>
              <input
                id={`${id}-new-value`}
                className="wk-input"
                value={newValue}
                inputMode={field.price ? 'decimal' : undefined}
                onChange={(e) => setNewValue(e.target.value)}
              />
              <label htmlFor={`${id}-new-label`}>Texto que se muestra (opcional)</label>
              <input
                id={`${id}-new-label`}
                className="wk-input"
                value={newLabel}
                onChange={(e) => setNewLabel(e.target.value)}
              />
              <button type="button" className="wk-button wk-button--secondary" onClick={addOption}>
                Añadir opción
              </button>
            </div>
          </div>
        )}
        {field.fieldType === 'PICKLIST' && (
          <div className="fc-condition">
            <label htmlFor={`${id}-if`}>Cuando se elija la opción</label>
            <select
              id={`${id}-if`}
              className="wk-input"
              value={field.conditionalField?.ifSelected ?? ''}
              onChange={(e) => onChange(withCondition(field, e.target.value, targets))}
            >
              <option value="">(sin campo condicional)</option>
              {(field.options ?? []).map((option) => (
                <option key={optionValue(option)} value={optionValue(option)}>
                  {optionLabel(option)}
                </option>
              ))}
            </select>
            <label htmlFor={`${id}-then`}>mostrar los campos (nombres internos, separados por comas)</label>
            <input
              id={`${id}-then`}
              className="wk-input"
              value={targets}
              onChange={(e) => {
                setTargets(e.target.value);
                onChange(withCondition(field, field.conditionalField?.ifSelected ?? '', e.target.value));
              }}
            />
          </div>
        )}
        {problems.length > 0 && (
          <ul className="fc-field__problems" role="alert">
            {problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
        )}
        <button type="button" className="wk-button wk-button--danger" onClick={onRemove}>
          Eliminar campo {field.name}
        </button>
      </fieldset>
    </details>
  );
}
