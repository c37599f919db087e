import { useEffect, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import {
  confirmDialog,
  formatHours,
  MESSAGES,
  showRequestError,
  showSuccess,
  useCentreProfile,
  useSession,
} from '@crm/web-kit';
import { formatDate, formatTime } from '@crm/web-kit/time';
import { WHAT_TO_BRING } from '@crm/contracts/booking-rules';
import { DEFAULT_REFUND_WINDOW_HOURS, refundedIfCancelled } from '@/lib/refund-policy';
import { cancelDate } from '../api/cancel-date';
import { useCurrentDate } from '../api/get-current-date';
import { usePageTitle } from '@/lib/page-title';
import { ConfirmEmailBanner } from './ConfirmEmailBanner';
import { MyDataSection } from './MyDataSection';
import { MyWaitlist } from './MyWaitlist';
import { pendingOffer } from '@/lib/pending-offer';
import { PaymentSection } from './PaymentSection';

/** Before cancelling: whether this cancellation would be refunded, by the centre's window. */
export function refundNotice(
  date: string,
  windowHours: number,
  now = Date.now(),
  refundForfeited?: true,
): string {
  if (refundForfeited)
    return `Su cita se cambió cuando faltaban menos de ${formatHours(windowHours)} para la original: si cancela no se le devolverá el importe.`;
  return refundedIfCancelled({ date, refundForfeited }, windowHours, now)
    ? 'Si cancela ahora se le devolverá el importe pagado.'
    : `Faltan menos de ${formatHours(windowHours)} para su cita: si cancela ahora no se le devolverá el importe.`;
}

/**
 * "My appointment" (docs/product/patient-area.md#my-appointment): date and time with "Cambiar cita" and a
 * cancel button (which says first whether the cancellation is refunded) — or, once the arrival is registered,
 * that they are checked in (no move, no cancel) — or "No tienes ninguna cita reservada".
 */
export default function MyAppointmentPage() {
  usePageTitle('Mi Cita');
  const { user } = useSession();
  const { profile } = useCentreProfile();
  const { data, error, isLoading, mutate } = useCurrentDate();
  const [busy, setBusy] = useState(false);
  const date = data?.date ?? null;
  const navigate = useNavigate();

  // An offer link opened before signing in: back to it now that the patient is here.
  useEffect(() => {
    const token = pendingOffer.take();
    if (token) navigate(`/dates/offer/${token}`, { replace: true });
  }, [navigate]);

  const cancel = async () => {
    if (!date) return;
    const confirmed = await confirmDialog({
      title: '¿Desea cancelar su cita?',
      text: `Fecha ${formatDate(date)} Hora ${formatTime(date)} (Atlantic/Canary). ${refundNotice(date, profile?.prices.refundWindowHours ?? DEFAULT_REFUND_WINDOW_HOURS, Date.now(), data?.refundForfeited)}`,
      icon: 'warning',
    });
    if (!confirmed) return;
    setBusy(true);
    try {
      const cancelled = await cancelDate(date);
      await mutate({ date: null }, { revalidate: false });
      const refund =
        cancelled.refundable === undefined
          ? ''
          : cancelled.refundable
            ? ' Le devolveremos el importe pagado.'
            : ' El importe pagado no se devuelve.';
      void showSuccess(MESSAGES.cancelSuccess.title, `${MESSAGES.cancelSuccess.text}${refund}`);
    } catch (err) {
      void mutate();
      void showRequestError(err);
    } finally {
      setBusy(false);
    }
  };

  const name = user?.profile?.name;
  return (
    <div className="page my-appointment">
      <header className="page__header">
        <h1>Mi Cita</h1>
        {name ? <p>Hola, {name}.</p> : null}
      </header>
      <ConfirmEmailBanner />
      <section className="appointment-card" aria-live="polite" aria-busy={isLoading}>
        {isLoading && !data ? (
          <p>Cargando su cita…</p>
        ) : error && !data ? (
          <p>No se ha podido cargar su cita. Inténtelo de nuevo más tarde.</p>
        ) : date ? (
          <>
            <h2 className="appointment-card__title">Su próxima cita</h2>
            <dl className="appointment-card__details">
              <div>
                <dt>Fecha</dt>
                <dd data-testid="appointment-date">{formatDate(date)}</dd>
              </div>
              <div>
                <dt>Hora</dt>
                <dd data-testid="appointment-time">{formatTime(date)} (Atlantic/Canary)</dd>
              </div>
              {data?.bookingCode ? (
                <div>
                  <dt>Código de la cita</dt>
                  <dd data-testid="booking-code" className="appointment-card__code">
                    {data.bookingCode}
                  </dd>
                </div>
              ) : null}
            </dl>
            {data?.bookingCode && data.status !== 'checkedIn' ? (
              <p className="appointment-card__note">
                Al llegar al centro, escriba en el quiosco de la entrada su correo electrónico y este código.
              </p>
            ) : null}
            <p className="appointment-card__note">
              {WHAT_TO_BRING}
              {profile
                ? ` Si cancela con más de ${formatHours(profile.prices.refundWindowHours)} de antelación le devolvemos el importe pagado.`
                : null}
            </p>
            {data?.id ? (
              <PaymentSection
                appointmentId={data.id}
                {...(data.paymentDueBy ? { paymentDueBy: data.paymentDueBy } : {})}
              />
            ) : null}
            {data?.status === 'checkedIn' ? (
              <p className="appointment-card__checked-in" data-testid="checked-in" role="status">
                Ha registrado su llegada
                {data.checkedInAt ? ` a las ${formatTime(data.checkedInAt)}` : ''}. Espere en la sala: le
                llamaremos en cuanto sea su turno. Para cualquier cambio, hable con recepción.
              </p>
            ) : (
              <div className="appointment-card__actions">
                <Link className="wk-button" to="/dates?cambiar=1">
                  Cambiar cita
                </Link>
                <button
                  type="button"
                  className="wk-button wk-button--danger"
                  onClick={cancel}
                  disabled={busy}
                >
                  Cancelar Cita
                </button>
              </div>
            )}
          </>
        ) : (
          <>
            <p className="appointment-card__empty">No tienes ninguna cita reservada</p>
            <Link className="wk-button" to="/dates">
              Reservar Cita
            </Link>
          </>
        )}
      </section>
      <MyWaitlist />
      <MyDataSection />
      <p className="my-appointment__accesses">
        <Link to="/user/accesos">Quién ha consultado mis datos</Link>
      </p>
    </div>
  );
}
