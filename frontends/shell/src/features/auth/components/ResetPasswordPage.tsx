import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { FormAlert, MESSAGES, PasswordField, preloadDialogs, showSuccess, useServerForm } from '@crm/web-kit';
import { resetPassword } from '../api/reset-password';
import { AuthCard } from './AuthCard';
import { usePageTitle } from '@/lib/page-title';

type Field = 'password' | 'repeat';
const FIELDS: Field[] = ['password', 'repeat'];

export const PASSWORDS_DIFFER = 'Las contraseñas no coinciden';

/** Reset password (SPEC §2.2): new password twice, then "Enviar". */
export default function ResetPasswordPage() {
  usePageTitle('Restablecer Contraseña');
  const { token = '' } = useParams();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { errors, setErrors, busy, run } = useServerForm(FIELDS);

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (password !== repeat) {
      setErrors({ fields: { repeat: PASSWORDS_DIFFER } });
      return;
    }
    await run(async () => {
      await resetPassword(token, password);
      void showSuccess(MESSAGES.passwordChanged.title, MESSAGES.passwordChanged.text);
      navigate('/login', { replace: true });
    });
  };

  return (
    <AuthCard title="Restablecer Contraseña" onSubmit={onSubmit}>
      <FormAlert message={errors.general} />
      <PasswordField
        label="Nueva Contraseña"
        name="password"
        autoComplete="new-password"
        required
        minLength={8}
        value={password}
        onValueChange={setPassword}
        onFocus={preloadDialogs}
        error={errors.fields.password}
        invalid={Boolean(errors.general)}
      />
      <PasswordField
        label="Repetir Contraseña"
        name="repeat"
        autoComplete="new-password"
        required
        value={repeat}
        onValueChange={setRepeat}
        error={errors.fields.repeat}
        invalid={Boolean(errors.general)}
      />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Enviar
      </button>
    </AuthCard>
  );
}
