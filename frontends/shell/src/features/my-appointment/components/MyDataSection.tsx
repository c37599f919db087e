import { useState, type FormEvent } from 'react';
import { confirmDialog, showRequestError, useServerForm, useSession } from '@crm/web-kit';
import { FormAlert, CurrentPasswordField } from '@crm/web-kit/forms';
import { flashNotice } from '@/lib/flash-notice';
import { deleteMyAccount, downloadMyData } from '../api/my-data';
import './my-data.css';

const FIELDS = ['password'] as const;

/** The server's own message for an empty password (DELETE /users/me). */
export const PASSWORD_REQUIRED = 'La contraseña es obligatoria';

/**
 * "Mis datos" (docs/product/rights-and-access-trail.md#data-export): a copy of everything the centre holds
 * about the patient (PDF or JSON), and the erasure of the account, confirmed with the password.
 */
export function MyDataSection() {
  const session = useSession();
  const [erasing, setErasing] = useState(false);
  const [password, setPassword] = useState('');
  const [downloading, setDownloading] = useState(false);
  const { errors, setErrors, busy, run, fieldProps } = useServerForm(FIELDS);

  const download = async (format: 'pdf' | 'json') => {
    setDownloading(true);
    try {
      await downloadMyData(format);
    } catch (err) {
      void showRequestError(err);
    } finally {
      setDownloading(false);
    }
  };

  const erase = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A missing password is said before the irreversible warning, not after it.
    if (!password) {
      setErrors({ fields: { password: PASSWORD_REQUIRED } });
      return;
    }
    setErrors({ fields: {} });
    const sure = await confirmDialog({
      title: '¿Eliminar su cuenta?',
      text: 'Se borrarán su nombre, correo y teléfono, y se cancelará su cita reservada. No se puede deshacer.',
      icon: 'warning',
    });
    if (!sure) return;
    await run(async () => {
      await deleteMyAccount(password);
      flashNotice.save({
        title: 'Cuenta eliminada',
        text: 'Hemos borrado sus datos de contacto. Los registros clínicos se conservan sin su nombre durante el plazo que exige la ley.',
      });
      session.signOut();
      // A fresh page: nothing of the person stays in this tab's memory.
      window.location.replace('/');
    });
  };

  return (
    <section className="appointment-card my-data" aria-labelledby="my-data-title">
      <h2 id="my-data-title" className="appointment-card__title">
        Mis datos
      </h2>
      <p>Descargue una copia de sus datos: su perfil, sus citas y sus registros clínicos.</p>
      <div className="appointment-card__actions">
        <button
          type="button"
          className="wk-button"
          disabled={downloading}
          onClick={() => void download('pdf')}
        >
          Descargar mis datos (PDF)
        </button>
        <button
          type="button"
          className="wk-button wk-button--secondary"
          disabled={downloading}
          onClick={() => void download('json')}
        >
          Descargar en formato JSON
        </button>
      </div>
      {erasing ? (
        <form className="my-data__erase" onSubmit={erase} noValidate>
          <p>
            Para eliminar su cuenta, escriba su contraseña. Sus registros clínicos se conservan sin su nombre
            durante el plazo legal (al menos 5 años) y después se borran.
          </p>
          <FormAlert message={errors.general} />
          <CurrentPasswordField value={password} onValueChange={setPassword} {...fieldProps('password')} />
          <div className="appointment-card__actions">
            <button type="submit" className="wk-button wk-button--danger" disabled={busy}>
              Eliminar mi cuenta definitivamente
            </button>
            <button
              type="button"
              className="wk-button wk-button--secondary"
              onClick={() => setErasing(false)}
            >
              Cancelar
            </button>
          </div>
        </form>
      ) : (
        <button type="button" className="my-data__erase-link" onClick={() => setErasing(true)}>
          Eliminar mi cuenta
        </button>
      )}
    </section>
  );
}
