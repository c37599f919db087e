import { useId, useState, type ChangeEvent, type InputHTMLAttributes } from 'react';
import { formatPhoneInput } from '../phone/phone';

type NativeInput = Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value' | 'id'>;

export interface FieldProps extends NativeInput {
  label: string;
  value: string;
  onValueChange(value: string): void;
  /** Message under the field. */
  error?: string;
  /** Paint the field red without a message of its own (e.g. a general error is set). */
  invalid?: boolean;
  id?: string;
}

/** A labelled input with its error line below (as on the sign-up card). */
export function TextField({
  label,
  value,
  onValueChange,
  error,
  invalid,
  id,
  className,
  ...input
}: FieldProps) {
  const autoId = useId();
  const inputId = id ?? autoId;
  const errorId = `${inputId}-error`;
  const bad = Boolean(error) || Boolean(invalid);
  return (
    <div className={`wk-field${bad ? ' wk-field--error' : ''}${className ? ` ${className}` : ''}`}>
      <label className="wk-label" htmlFor={inputId}>
        {label}
      </label>
      <input
        {...input}
        id={inputId}
        className="wk-input"
        value={value}
        placeholder={input.placeholder ?? label}
        aria-invalid={bad || undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(e: ChangeEvent<HTMLInputElement>) => onValueChange(e.target.value)}
      />
      <p className="wk-error-line" id={errorId} role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </div>
  );
}

/** Password input with a show/hide toggle. */
export function PasswordField(props: Omit<FieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  const autoId = useId();
  const inputId = props.id ?? autoId;
  const bad = Boolean(props.error) || Boolean(props.invalid);
  const errorId = `${inputId}-error`;
  const { label, value, onValueChange, error, invalid: _invalid, className, ...input } = props;
  return (
    <div className={`wk-field${bad ? ' wk-field--error' : ''}${className ? ` ${className}` : ''}`}>
      <label className="wk-label" htmlFor={inputId}>
        {label}
      </label>
      <div className="wk-password">
        <input
          {...input}
          id={inputId}
          type={visible ? 'text' : 'password'}
          className="wk-input"
          value={value}
          placeholder={input.placeholder ?? label}
          aria-invalid={bad || undefined}
          aria-describedby={error ? errorId : undefined}
          onChange={(e) => onValueChange(e.target.value)}
        />
        <button
          type="button"
          className="wk-password__toggle"
          aria-pressed={visible}
          aria-controls={inputId}
          onClick={() => setVisible((v) => !v)}
        >
          {visible ? 'Ocultar' : 'Mostrar'}
          <span className="wk-visually-hidden"> contraseña</span>
        </button>
      </div>
      <p className="wk-error-line" id={errorId} role={error ? 'alert' : undefined}>
        {error ?? ''}
      </p>
    </div>
  );
}

type PresetProps = Omit<FieldProps, 'label'> & { label?: string };

/** The e-mail input of every form (same wording everywhere); a shared screen passes autoComplete="off". */
export function EmailField({ label = 'Correo Electrónico', ...props }: PresetProps) {
  return <TextField label={label} name="email" type="email" autoComplete="email" required {...props} />;
}

/** The full-name input of every form (same wording everywhere); a shared screen passes autoComplete="off". */
export function FullNameField({ label = 'Nombre Completo', ...props }: PresetProps) {
  return <TextField label={label} name="name" autoComplete="name" required {...props} />;
}

/** The password that proves who is asking (sign-in, erasing the account): the browser may fill it in. */
export function CurrentPasswordField({ label = 'Contraseña', ...props }: PresetProps) {
  return <PasswordField label={label} name="password" autoComplete="current-password" required {...props} />;
}

/** Phone input: formats as typed ("+34 612 345678"); send `phoneDigits(value)`. */
export function PhoneField(props: Omit<FieldProps, 'type'>) {
  const { onValueChange, ...rest } = props;
  return (
    <TextField
      {...rest}
      type="tel"
      inputMode="tel"
      autoComplete={rest.autoComplete ?? 'tel'}
      onValueChange={(v) => onValueChange(formatPhoneInput(v))}
    />
  );
}

/** The general error area above a form's fields. */
export function FormAlert({ message }: { message?: string }) {
  return (
    <div className={`wk-form-alert${message ? ' wk-form-alert--visible' : ''}`} role="alert">
      {message ?? ''}
    </div>
  );
}
