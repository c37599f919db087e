import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import {
  FormAlert,
  homeForRole,
  LoadingScreen,
  MESSAGES,
  PasswordField,
  preloadDialogs,
  showSuccess,
  TextField,
  useSession,
  useServerForm,
} from '@crm/web-kit';
import { signIn } from '../api/sign-in';
import { AuthCard } from './AuthCard';
import { usePageTitle } from '@/lib/page-title';

type Field = 'email' | 'password';
const FIELDS: Field[] = ['email', 'password'];

/** Sign in (SPEC §2.1): stores the token and goes to the role's home; a signed-in user is redirected. */
export default function SignInPage() {
  usePageTitle('Iniciar Sesión');
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { errors, busy, run } = useServerForm(FIELDS);

  if (session.status === 'loading') return <LoadingScreen />;
  if (session.status === 'loggedIn' && session.user)
    return <Navigate to={homeForRole(session.user.rol)} replace />;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    await run(async () => {
      const answer = await signIn({ email: email.trim(), password });
      void showSuccess(MESSAGES.signInSuccess.title, MESSAGES.signInSuccess.text);
      session.signIn(answer);
    });
  };

  const invalidAll = Boolean(errors.general);
  return (
    <AuthCard
      title="Iniciar Sesión"
      onSubmit={onSubmit}
      footer={
        <>
          <p>
            ¿No tiene cuenta? <Link to="/signup">Registrarse</Link>
          </p>
          <p>
            <Link to="/forgot-password">¿Olvidó su contraseña?</Link>
          </p>
        </>
      }
    >
      <FormAlert message={errors.general} />
      <TextField
        label="Correo Electrónico"
        name="email"
        type="email"
        autoComplete="email"
        required
        value={email}
        onValueChange={setEmail}
        onFocus={preloadDialogs}
        error={errors.fields.email}
        invalid={invalidAll}
      />
      <PasswordField
        label="Contraseña"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onValueChange={setPassword}
        error={errors.fields.password}
        invalid={invalidAll}
      />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Acceder
      </button>
    </AuthCard>
  );
}
