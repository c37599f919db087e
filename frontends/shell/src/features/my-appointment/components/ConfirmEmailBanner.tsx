import { useEffect, useState } from 'react';
import { showRequestError, showSuccess, useSession } from '@crm/web-kit';
import { resendConfirmation } from '../api/resend-confirmation';
import './confirm-email-banner.css';

export const RESEND_SENT = {
  title: 'Correo enviado',
  text: 'Le hemos enviado un nuevo enlace de confirmación. Revise su bandeja de entrada (y la carpeta de correo no deseado).',
};

/**
 * Patient area: a patient who has not confirmed the e-mail address can use the area, and is asked
 * here to confirm it, with a button that sends the confirmation e-mail again.
 */
export function ConfirmEmailBanner() {
  const { user, refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const profile = user?.profile;

  // Right after signing in the session knows only the id and role: ask for the whole profile.
  useEffect(() => {
    if (user && !profile) void refresh();
  }, [user, profile, refresh]);

  if (!profile || profile.confirmed) return null;

  const resend = async () => {
    setBusy(true);
    try {
      await resendConfirmation(profile.email);
      void showSuccess(RESEND_SENT.title, RESEND_SENT.text);
    } catch (err) {
      void showRequestError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="confirm-banner" role="status" aria-labelledby="confirm-banner-title">
      <div className="confirm-banner__text">
        <h2 id="confirm-banner-title" className="confirm-banner__title">
          Confirme su correo electrónico
        </h2>
        <p>
          Le enviamos un enlace de confirmación a <strong>{profile.email}</strong>. Ábralo para confirmar su
          cuenta; si no lo encuentra, podemos enviárselo de nuevo.
        </p>
      </div>
      <button type="button" className="wk-button confirm-banner__button" onClick={resend} disabled={busy}>
        {busy ? 'Enviando…' : 'Reenviar correo'}
      </button>
    </section>
  );
}
