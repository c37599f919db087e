import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { FormAlert, MESSAGES, preloadDialogs, showSuccess, TextField, useServerForm } from '@crm/web-kit';
import { forgotPassword } from '../api/forgot-password';
import { AuthCard } from './AuthCard';
import { usePageTitle } from '@/lib/page-title';

type Field = 'name' | 'email';
const FIELDS: Field[] = ['name', 'email'];

/** Forgot password (SPEC §2.4): full name and e-mail; the server e-mails a reset link. */
export default function ForgotPasswordPage() {
  usePageTitle('Recuperar Contraseña');
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const { errors, busy, run } = useServerForm(FIELDS);

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
      <TextField
        label="Nombre Completo"
        name="name"
        autoComplete="name"
        required
        value={name}
        onValueChange={setName}
        onFocus={preloadDialogs}
        error={errors.fields.name}
        invalid={Boolean(errors.general)}
      />
      <TextField
        label="Correo Electrónico"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onValueChange={setEmail}
        error={errors.fields.email}
        invalid={Boolean(errors.general)}
      />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Enviar
      </button>
    </AuthCard>
  );
}
