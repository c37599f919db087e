import { useState, type FormEvent } from 'react';
import {
  api,
  FormAlert,
  MESSAGES,
  PasswordField,
  phoneDigits,
  PhoneField,
  showSuccess,
  EmailField,
  FullNameField,
  useServerForm,
} from '@crm/web-kit';
import { PageHeader } from '@/components';
import './register-patient.css';

const FIELDS = ['name', 'phone', 'email', 'password'] as const;
type Field = (typeof FIELDS)[number];
const EMPTY: Record<Field, string> = { name: '', phone: '', email: '', password: '' };

export const INVITATION_SENT =
  'El paciente ha sido registrado correctamente. Le hemos enviado un correo electrónico para que cree su contraseña y pueda entrar en su área.';

/**
 * Register a patient (SPEC §2, §7): POST /auth/doctor/patient/create {name, phone, email, password?};
 * "Paciente Registrado" then the page reloads (empty form). Server errors go under their field.
 * The password is optional: without it the patient is e-mailed an invitation to set one.
 */
export default function RegisterPatientPage() {
  const [values, setValues] = useState(EMPTY);
  const { errors, busy, run, fieldProps } = useServerForm(FIELDS);
  const set = (field: Field) => (value: string) => setValues((old) => ({ ...old, [field]: value }));

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
        <FullNameField
          autoComplete="off"
          value={values.name}
          onValueChange={set('name')}
          {...fieldProps('name')}
        />
        <PhoneField
          label="Número de Teléfono"
          autoComplete="off"
          required
          value={values.phone}
          onValueChange={set('phone')}
          {...fieldProps('phone')}
        />
        <EmailField
          autoComplete="off"
          value={values.email}
          onValueChange={set('email')}
          {...fieldProps('email')}
        />
        <PasswordField
          label="Contraseña"
          autoComplete="new-password"
          placeholder="Opcional"
          value={values.password}
          onValueChange={set('password')}
          {...fieldProps('password')}
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
