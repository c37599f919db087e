import { useState } from 'react';
import { MfaEnrolment, showSuccess, useSession } from '@crm/web-kit';
import { PageHeader } from '@/components';
import { confirmMfa, setupMfa } from '../api/mfa';
import './security.css';

/**
 * "Seguridad" (docs/product/rights-and-access-trail.md#second-factor): the signed-in doctor or admin sets up
 * the verification in two steps (also before their role requires it). Once on, it is asked at every sign-in.
 */
export default function SecurityPage() {
  const { user, refresh } = useSession();
  const [started, setStarted] = useState(false);
  const enabled = Boolean(user?.profile?.mfaEnabled);

  return (
    <section className="bo-page">
      <PageHeader title="Seguridad" />
      {enabled ? (
        <p data-testid="mfa-state">
          La verificación en dos pasos está activada: al iniciar sesión se le pedirá el código de su
          aplicación de autenticación.
        </p>
      ) : started ? (
        <div className="bo-security__enrol">
          <MfaEnrolment
            title="Activar la verificación en dos pasos"
            setup={setupMfa}
            confirm={confirmMfa}
            onDone={() => {
              setStarted(false);
              void refresh();
              void showSuccess(
                'Verificación activada',
                'A partir de ahora se le pedirá el código al iniciar sesión.',
              );
            }}
          />
        </div>
      ) : (
        <>
          <p data-testid="mfa-state">
            La verificación en dos pasos no está activada. Con ella, además de la contraseña se le pedirá un
            código de su móvil al iniciar sesión.
          </p>
          <button type="button" className="wk-button" onClick={() => setStarted(true)}>
            Activar la verificación en dos pasos
          </button>
        </>
      )}
    </section>
  );
}
