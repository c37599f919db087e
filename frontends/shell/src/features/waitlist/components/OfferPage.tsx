import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';
import { LoadingScreen, showBookingError, showSuccess, useSession } from '@crm/web-kit';
import { formatDate, formatTime } from '@crm/web-kit/time';
import { BOOKED_DATES_PATH, CURRENT_DATE_PATH } from '@/lib/cache-keys';
import { usePageTitle } from '@/lib/page-title';
import { claimOffer, useOffer, WAITLIST_PATH } from '@/lib/waitlist';
import { pendingOffer } from '@/lib/pending-offer';
import './offer-page.css';

/**
 * `/dates/offer/:token`, the waiting-list e-mail's link: the slot held for the patient and a button
 * that books it (or moves their appointment there). A visitor who is not signed in is asked to sign
 * in first and comes back here afterwards.
 */
export default function OfferPage() {
  usePageTitle('Hueco libre');
  const { token } = useParams();
  const session = useSession();
  const navigate = useNavigate();
  const { mutate } = useSWRConfig();
  const isPatient = session.status === 'loggedIn' && session.user?.rol === 'PACIENT';
  const { data: offer, error, isLoading } = useOffer(token, isPatient);
  const [busy, setBusy] = useState(false);

  if (session.status === 'loading') return <LoadingScreen />;

  const claim = async () => {
    if (!token || !offer) return;
    setBusy(true);
    try {
      const booked = await claimOffer(token);
      await mutate(CURRENT_DATE_PATH, { date: booked.date }, { revalidate: false });
      void mutate(BOOKED_DATES_PATH);
      void mutate(WAITLIST_PATH);
      navigate('/user');
      await showSuccess(
        'Cita reservada',
        `Su cita es el ${formatDate(booked.date)} a las ${formatTime(booked.date)} (Atlantic/Canary).`,
      );
    } catch (err) {
      await showBookingError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="page offer-page">
      <header className="page__header">
        <h1>Hueco libre</h1>
      </header>
      <section className="appointment-card" aria-live="polite">
        {!isPatient ? (
          <>
            <p>Inicie sesión con su cuenta de paciente para reservar el hueco que le hemos guardado.</p>
            <Link className="wk-button" to="/login" onClick={() => token && pendingOffer.save(token)}>
              Iniciar sesión
            </Link>
          </>
        ) : isLoading ? (
          <p>Cargando…</p>
        ) : error || !offer ? (
          <>
            <p>Este hueco ya no está disponible: la oferta ha caducado o ya se ha usado.</p>
            <Link className="wk-button" to="/dates">
              Ver horarios libres
            </Link>
          </>
        ) : (
          <>
            <p>
              Le guardamos esta cita hasta las <strong>{formatTime(offer.expiresAt)}</strong>:
            </p>
            <dl className="appointment-card__details">
              <div>
                <dt>Fecha</dt>
                <dd data-testid="offer-date">{formatDate(offer.date)}</dd>
              </div>
              <div>
                <dt>Hora</dt>
                <dd data-testid="offer-time">{formatTime(offer.date)} (Atlantic/Canary)</dd>
              </div>
            </dl>
            <p className="appointment-card__note">
              Si ya tiene otra cita, al reservar esta se cambiará a la nueva hora.
            </p>
            <div className="appointment-card__actions">
              <button type="button" className="wk-button" onClick={() => void claim()} disabled={busy}>
                Reservar este hueco
              </button>
            </div>
          </>
        )}
      </section>
    </div>
  );
}
