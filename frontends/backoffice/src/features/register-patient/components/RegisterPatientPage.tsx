import { useState, type FormEvent } from 'react';
import { api, MESSAGES, phoneDigits, showSuccess, useServerForm } from '@crm/web-kit';
import { FormAlert, PasswordField, PhoneField, EmailField, FullNameField } from '@crm/web-kit/forms';
import { PageHeader } from '@/components';
import './register-patient.css';

const FIELDS = ['name', 'phone', 'email', 'password'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: Record<Field, string> = { name: '', phone: '', email: '', password: '' };

export const INVITATION_SENT =
  'El paciente ha sido registrado correctamente. Le hemos enviado un correo electrónico para que cree su contraseña y pueda entrar en su área.';

/**
 * Register a patient (docs/product/back-office.md#register-a-patient): POST /auth/doctor/patient/create
 * {name, phone, email, password?}; "Paciente Registrado" then the page reloads (empty form). Server errors go
 * under their field. The password is optional: without it the patient is e-mailed an invitation to set one.
 */
export default function RegisterPatientPage() {
  const [values, setValues] = useState(EMPTY);
  const { errors, busy, run, fieldProps } = useServerForm(FIELDS);
  /** A field's value, its setter and its part of the last refusal. */
  const bind = (field: Field) => ({
    value: values[field],
    onValueChange: (value: string) => setValues((old) => ({ ...old, [field]: value })),
    ...fieldProps(field),
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(async () => {
      const { password, ...person } = values;
      await api.post('/auth/doctor/patient/create', {
        ...person,
        phone: phoneDigits(values.phone),
        ...(password ? { password } : {}),
      });
      await showSuccess(
        MESSAGES.patientRegistered.title,
        password ? MESSAGES.patientRegistered.text : INVITATION_SENT,
      );
      window.location.reload();
    });
  };

  return (
    <section className="bo-page">
      <PageHeader title="Registrar Paciente" />
      <form className="bo-card bo-form" onSubmit={submit} noValidate={false} aria-label="Registrar Paciente">
        <FormAlert message={errors.general} />
        <FullNameField autoComplete="off" {...bind('name')} />
        <PhoneField label="Número de Teléfono" autoComplete="off" required {...bind('phone')} />
        <EmailField autoComplete="off" {...bind('email')} />
        <PasswordField
          label="Contraseña"
          autoComplete="new-password"
          placeholder="Opcional"
          {...bind('password')}
        />
        <p className="bo-form__hint" id="register-password-hint">
          Opcional. Si la deja en blanco, el paciente recibirá un correo electrónico para crear su contraseña.
        </p>
        <button type="submit" className="wk-button wk-button--block" disabled={busy}>
          {busy ? 'Registrando…' : 'Registrar Paciente'}
        </button>
      </form>
    </section>
  );
}
