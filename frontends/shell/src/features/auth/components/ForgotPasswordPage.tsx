import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { MESSAGES, preloadDialogs, showSuccess, useServerForm } from '@crm/web-kit';
import { EmailField, FormAlert, FullNameField } from '@crm/web-kit/forms';
import { forgotPassword } from '../api/forgot-password';
import { AuthCard } from './AuthCard';
import { usePageTitle } from '@/lib/page-title';

type Field = 'name' | 'email';
const FIELDS: Field[] = ['name', 'email'];

/**
 * Forgot password (docs/product/booking.md#forgot-password): full name and e-mail; the server e-mails a reset
 * link.
 */
export default function ForgotPasswordPage() {
  usePageTitle('Recuperar Contraseña');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const { errors, busy, run, fieldProps } = useServerForm(FIELDS);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    await run(async () => {
      await forgotPassword({ name: name.trim(), email: email.trim() });
      void showSuccess(MESSAGES.forgotPasswordSent.title, MESSAGES.forgotPasswordSent.text);
      navigate('/login');
    });
  };

  return (
    <AuthCard
      title="Recuperar Contraseña"
      intro="Indique su nombre y su correo electrónico y le enviaremos un enlace para crear una contraseña nueva."
      onSubmit={onSubmit}
      footer={
        <p>
          <Link to="/login">Volver a Iniciar Sesión</Link>
        </p>
      }
    >
      <FormAlert message={errors.general} />
      <FullNameField value={name} onValueChange={setName} onFocus={preloadDialogs} {...fieldProps('name')} />
      <EmailField value={email} onValueChange={setEmail} {...fieldProps('email')} />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Enviar
      </button>
    </AuthCard>
  );
}
