import { useState, type FormEvent } from 'react';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { homeForRole, MESSAGES, preloadDialogs, showSuccess, useServerForm, useSession } from '@crm/web-kit';
import { FormAlert, PasswordField } from '@crm/web-kit/forms';
import { resetPassword } from '../api/reset-password';
import { signIn } from '../api/sign-in';
import { AuthCard } from './AuthCard';
import { usePageTitle } from '@/lib/page-title';

type Field = 'password' | 'repeat';
const FIELDS: Field[] = ['password', 'repeat'];

export const PASSWORDS_DIFFER = 'Las contraseñas no coinciden';

export const PASSWORD_SET = {
  title: 'Contraseña guardada',
  text: 'Su contraseña se ha guardado correctamente. Bienvenido a su área.',
};

/**
 * Reset password (docs/product/booking.md#reset-password): new password twice, then "Enviar". Also the page
 * of the invitation e-mail (patients registered by staff or at the kiosk, staff invited by an admin). The
 * answer names the account, so the page signs in with the new password and the person goes straight to their
 * area; should that sign-in fail, the sign-in page.
 */
export default function ResetPasswordPage() {
  // An invitation's link (`?invitation=1`) creates the first password: the page says so.
  const [search] = useSearchParams();
  const title = search.get('invitation') === '1' ? 'Crear contraseña' : 'Restablecer Contraseña';
  usePageTitle(title);
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const session = useSession();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { errors, setErrors, busy, run, fieldProps } = useServerForm(FIELDS);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (password !== repeat) {
      setErrors({ fields: { repeat: PASSWORDS_DIFFER } });
      return;
    }
    await run(async () => {
      const { email } = await resetPassword(token, password);
      const opened = email ? await signIn({ email, password }).catch(() => undefined) : undefined;
      // A staff account with a second factor due signs in on /login, where its steps are.
      if (opened && 'sessiontoken' in opened) {
        void showSuccess(PASSWORD_SET.title, PASSWORD_SET.text);
        session.signIn(opened);
        navigate(homeForRole(opened.rol), { replace: true });
        return;
      }
      void showSuccess(MESSAGES.passwordChanged.title, MESSAGES.passwordChanged.text);
      navigate('/login', { replace: true });
    });
  };

  return (
    <AuthCard title={title} onSubmit={onSubmit}>
      <FormAlert message={errors.general} />
      <PasswordField
        label="Nueva Contraseña"
        autoComplete="new-password"
        required
        minLength={8}
        value={password}
        onValueChange={setPassword}
        onFocus={preloadDialogs}
        {...fieldProps('password')}
      />
      <PasswordField
        label="Repetir Contraseña"
        autoComplete="new-password"
        required
        value={repeat}
        onValueChange={setRepeat}
        {...fieldProps('repeat')}
      />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Enviar
      </button>
    </AuthCard>
  );
}
