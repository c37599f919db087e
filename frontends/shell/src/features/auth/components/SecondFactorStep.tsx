import { useState, type FormEvent } from 'react';
import type { MfaChallengeResponse, SignInResponse } from '@crm/contracts';
import { MfaEnrolment, useServerForm } from '@crm/web-kit';
import { FormAlert, TextField } from '@crm/web-kit/forms';
import { enrolConfirm, enrolSetup, signInWithCode } from '../api/second-factor';
import { AuthCard } from './AuthCard';

const FIELDS = ['code'] as const;

/**
 * The sign-in's second step (docs/product/rights-and-access-trail.md#second-factor): the code from the
 * authenticator app (or a recovery code); or, for a role that must use one and has none yet, its set-up with
 * the QR code first.
 */
export function SecondFactorStep({
  challenge,
  onSession,
}: {
  challenge: MfaChallengeResponse;
  onSession(answer: SignInResponse): void;
}) {
  const [code, setCode] = useState('');
  const { errors, busy, run, fieldProps } = useServerForm(FIELDS);

  if (challenge.mfaSetupRequired)
    return (
      <AuthCard
        title="Verificación en dos pasos"
        intro="Su cuenta necesita un segundo paso al iniciar sesión: configúrelo ahora, solo una vez."
      >
        <MfaEnrolment
          setup={() => enrolSetup(challenge.mfaToken)}
          confirm={(first) => enrolConfirm(challenge.mfaToken, first)}
          onDone={(answer) => onSession(answer as SignInResponse)}
        />
      </AuthCard>
    );

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await run(async () => onSession(await signInWithCode(challenge.mfaToken, code.trim())));
  };

  return (
    <AuthCard
      title="Verificación en dos pasos"
      intro="Escriba el código de 6 cifras de su aplicación de autenticación, o uno de sus códigos de recuperación."
      onSubmit={submit}
    >
      <FormAlert message={errors.general} />
      <TextField
        label="Código de verificación"
        autoComplete="one-time-code"
        required
        value={code}
        onValueChange={setCode}
        {...fieldProps('code')}
      />
      <button type="submit" className="wk-button wk-button--block" disabled={busy}>
        Verificar
      </button>
    </AuthCard>
  );
}
