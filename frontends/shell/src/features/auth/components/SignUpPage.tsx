import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  ApiError,
  homeForRole,
  MESSAGES,
  phoneDigits,
  preloadDialogs,
  showSuccess,
  toFormErrors,
  useSession,
  useServerForm,
} from '@crm/web-kit';
import { FormAlert, PasswordField, PhoneField, EmailField, FullNameField } from '@crm/web-kit/forms';
import { signUp } from '../api/sign-up';
import { AuthCard } from './AuthCard';
import { usePageTitle } from '@/lib/page-title';
import { useTypedBeforeStart } from '@/lib/prerendered-form';

type Field = 'name' | 'phone' | 'email' | 'password';
const FIELDS: Field[] = ['name', 'phone', 'email', 'password'];

/**
 * "Registro de Paciente" (docs/product/booking.md#sign-up): general error above, one error line under each
 * field. The answer carries a session token: the new patient is signed in at once (and a date picked before
 * is booked), and must confirm the e-mail before signing in again.
 */
export default function SignUpPage() {
  usePageTitle('Registro de Paciente');
  const session = useSession();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  useTypedBeforeStart('signup', { name: setName, phone: setPhone, email: setEmail, password: setPassword });
  const { errors, setErrors, busy, run, fieldProps } = useServerForm(FIELDS);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    await run(async () => {
      const result = await signUp({
        name: name.trim(),
        phone: phoneDigits(phone),
        email: email.trim(),
        password,
      });
      if (!result?.id) {
        setErrors(toFormErrors(new ApiError(400, result?.message ?? 'Registro no completado'), FIELDS));
        return;
      }
      void showSuccess(MESSAGES.signUpSuccess.title, MESSAGES.signUpSuccess.text);
      if (result.sessiontoken)
        session.signIn({ sessiontoken: result.sessiontoken, id: result.id, rol: result.rol });
      navigate(homeForRole(result.rol ?? 'PACIENT'), { replace: true });
    });
  };

  return (
    <AuthCard
      title="Registro de Paciente"
      onSubmit={onSubmit}
      footer={
        <p>
          ¿Ya tiene cuenta? <Link to="/login">Iniciar Sesión</Link>. Al registrarse acepta los{' '}
          <Link to="/terms-and-conditions">Términos y Condiciones</Link> y la{' '}
          <Link to="/privacy-policy">Política de Privacidad</Link>.
        </p>
      }
    >
      <FormAlert message={errors.general} />
      <FullNameField value={name} onValueChange={setName} onFocus={preloadDialogs} {...fieldProps('name')} />
      <PhoneField
        label="Número de Teléfono"
        required
        value={phone}
        onValueChange={setPhone}
        {...fieldProps('phone')}
      />
      <EmailField value={email} onValueChange={setEmail} {...fieldProps('email')} />
      <PasswordField
        label="Contraseña"
        autoComplete="new-password"
        required
        minLength={8}
        value={password}
        onValueChange={setPassword}
        {...fieldProps('password')}
      />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Enviar
      </button>
    </AuthCard>
  );
}
