import { useState, type FormEvent } from 'react';
import { Link, Navigate } from 'react-router-dom';
import {
  homeForRole,
  LoadingScreen,
  MESSAGES,
  preloadDialogs,
  showSuccess,
  useSession,
  useServerForm,
} from '@crm/web-kit';
import { FormAlert, CurrentPasswordField, EmailField } from '@crm/web-kit/forms';
import type { MfaChallengeResponse, SignInResponse } from '@crm/contracts';
import { signIn } from '../api/sign-in';
import { SecondFactorStep } from './SecondFactorStep';
import { AuthCard } from './AuthCard';
import { usePageTitle } from '@/lib/page-title';
import { useTypedBeforeStart } from '@/lib/prerendered-form';

type Field = 'email' | 'password';
const FIELDS: Field[] = ['email', 'password'];

/**
 * Sign in (docs/product/booking.md#sign-in): stores the token and goes to the role's home; a signed-in user
 * is redirected.
 */
export default function SignInPage() {
  usePageTitle('Iniciar Sesión');
  const session = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  useTypedBeforeStart('login', { email: setEmail, password: setPassword });
  const { errors, busy, run, fieldProps } = useServerForm(FIELDS);
  const [challenge, setChallenge] = useState<MfaChallengeResponse | null>(null);

  const signedIn = (answer: SignInResponse) => {
    void showSuccess(MESSAGES.signInSuccess.title, MESSAGES.signInSuccess.text);
    session.signIn(answer);
  };

  if (session.status === 'loading') return <LoadingScreen />;
  if (session.status === 'loggedIn' && session.user)
    return <Navigate to={homeForRole(session.user.rol)} replace />;

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    await run(async () => {
      const answer = await signIn({ email: email.trim(), password });
      if ('mfaRequired' in answer) setChallenge(answer);
      else signedIn(answer);
    });
  };

  if (challenge) return <SecondFactorStep challenge={challenge} onSession={signedIn} />;

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
      <EmailField value={email} onValueChange={setEmail} onFocus={preloadDialogs} {...fieldProps('email')} />
      <CurrentPasswordField value={password} onValueChange={setPassword} {...fieldProps('password')} />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Acceder
      </button>
    </AuthCard>
  );
}
