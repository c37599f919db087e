import { Fragment, useEffect, useState, type FormEvent } from 'react';
import type { MfaConfirmResponse, MfaSetupResponse } from '@crm/contracts';
import { FormAlert, TextField } from '../ui/fields';
import { useServerForm } from '../ui/use-server-form';

const CODE_FIELDS = ['code'] as const;

/**
 * The secret in groups of four, each kept on one line (a phone wraps between groups, never inside
 * one, so what is read off the screen is typed right); the spaces between groups stay copyable.
 */
const grouped = (secret: string) =>
  (secret.match(/.{1,4}/g) ?? []).map((group, index) => (
    <Fragment key={index}>
      {index > 0 && ' '}
      <span className="wk-mfa__group">{group}</span>
    </Fragment>
  ));

/**
 * Setting up the second factor (docs/product/rights-and-access-trail.md#second-factor), the same in the
 * sign-in walk-through and on the back office's "Seguridad" page: the QR code (and the secret, for typing),
 * the first code from the app, then the 10 recovery codes, shown this once. `onDone` gets the confirmation's
 * answer.
 */
export default function MfaEnrolment({
  setup,
  confirm,
  onDone,
  title,
}: {
  /** The set-up's heading, when the page around it has none of its own. */
  title?: string;
  setup: () => Promise<MfaSetupResponse>;
  confirm: (code: string) => Promise<MfaConfirmResponse>;
  onDone: (answer: MfaConfirmResponse) => void;
}) {
  const [secret, setSecret] = useState<MfaSetupResponse | null>(null);
  const [code, setCode] = useState('');
  const [answer, setAnswer] = useState<MfaConfirmResponse | null>(null);
  const { errors, busy, run } = useServerForm(CODE_FIELDS);

  useEffect(() => {
    void run(async () => setSecret(await setup()));
    // Once per mount: a new secret each time would invalidate the one being scanned.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await run(async () => setAnswer(await confirm(code.trim())));
  };

  if (answer)
    return (
      <section className="wk-mfa" aria-labelledby="mfa-recovery-title">
        <h2 id="mfa-recovery-title" className="wk-mfa__title">
          Códigos de recuperación
        </h2>
        <p>
          Guárdelos en un lugar seguro. Cada uno sirve una sola vez para entrar si no tiene el móvil a mano.
          No se volverán a mostrar.
        </p>
        <ul className="wk-mfa__codes" data-testid="recovery-codes">
          {answer.recoveryCodes.map((recovery) => (
            <li key={recovery}>
              <code>{recovery}</code>
            </li>
          ))}
        </ul>
        <button type="button" className="wk-button wk-button--block" onClick={() => onDone(answer)}>
          He guardado los códigos
        </button>
      </section>
    );

  return (
    <form className="wk-mfa" onSubmit={submit} noValidate aria-label={title ?? 'Verificación en dos pasos'}>
      {title ? <h2 className="wk-mfa__title">{title}</h2> : null}
      <FormAlert message={errors.general} />
      <ol className="wk-mfa__steps">
        <li>
          Instale en su móvil una aplicación de autenticación (Google Authenticator, Microsoft Authenticator,
          FreeOTP…).
        </li>
        <li>Escanee este código con la aplicación, o escriba la clave a mano.</li>
        <li>Escriba el código de 6 cifras que muestra la aplicación.</li>
      </ol>
      {secret ? (
        <div className="wk-mfa__secret">
          <img
            src={secret.qrDataUrl}
            alt="Código QR para la aplicación de autenticación"
            width={200}
            height={200}
          />
          <p>
            Clave: <code data-testid="mfa-secret">{grouped(secret.secret)}</code>
          </p>
        </div>
      ) : (
        <p>Preparando el código…</p>
      )}
      <TextField
        label="Código de la aplicación"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={6}
        required
        value={code}
        onValueChange={setCode}
        error={errors.fields.code}
      />
      <button type="submit" className="wk-button wk-button--block" disabled={busy || !secret}>
        Activar
      </button>
    </form>
  );
}
