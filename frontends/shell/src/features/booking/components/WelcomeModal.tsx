import { Link } from 'react-router-dom';
import { Modal } from '@crm/web-kit/forms';
import { formatDate, formatTime } from '@crm/web-kit/time';

/** A visitor picked a slot: sign in or sign up first; the slot is kept and booked afterwards. */
export function WelcomeModal({ slot, onClose }: { slot: string | null; onClose(): void }) {
  return (
    <Modal
      open={slot !== null}
      title="Bienvenido!"
      onClose={onClose}
      actions={
        <>
          <Link className="wk-button" to="/login" data-autofocus>
            Iniciar Sesión
          </Link>
          <Link className="wk-button wk-button--secondary" to="/signup">
            Registrarse
          </Link>
        </>
      }
    >
      {slot ? (
        <p>
          Para reservar su cita del <strong>{formatDate(slot)}</strong> a las{' '}
          <strong>{formatTime(slot)}</strong> inicie sesión o regístrese. Guardaremos el horario elegido y lo
          reservaremos automáticamente.
        </p>
      ) : null}
    </Modal>
  );
}
