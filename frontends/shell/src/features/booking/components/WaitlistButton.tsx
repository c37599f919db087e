import { useState } from 'react';
import { Link } from 'react-router-dom';
import { showRequestError, showSuccess } from '@crm/web-kit';
import { formatDay, type Day } from '@crm/web-kit/time';
import { joinWaitlist, leaveWaitlist, useWaitlist } from '@/lib/waitlist';
import { heldOfferText, missedOffersText } from '@/lib/waitlist-state';
import './waitlist-button.css';

/**
 * Under the slots of the chosen day: "Avisarme si queda un hueco" joins the day's waiting list (the
 * first in line gets an e-mail when a slot of that day frees up); once on it, the place in line and
 * a way out. Visitors are asked to sign in first; staff never see it.
 */
export function WaitlistButton({ day, full, signedIn }: { day: Day; full: boolean; signedIn: boolean }) {
  const { data, mutate } = useWaitlist(signedIn);
  const [busy, setBusy] = useState(false);
  const entry = data?.entries.find((e) => e.day === day);

  const run = async (action: () => Promise<unknown>, title: string, text: string) => {
    setBusy(true);
    try {
      await action();
      await mutate();
      void showSuccess(title, text);
    } catch (err) {
      void showRequestError(err);
    } finally {
      setBusy(false);
    }
  };

  if (!signedIn)
    return full ? (
      <p className="waitlist-box">
        <Link to="/login">Inicie sesión</Link> para que le avisemos si queda un hueco este día.
      </p>
    ) : null;

  if (entry)
    return (
      <div className="waitlist-box" role="status">
        {entry.offer ? (
          <p>{heldOfferText(entry.offer)}</p>
        ) : (
          <p>
            {missedOffersText(entry)} Está en la lista de espera del {formatDay(day)} (puesto {entry.position}
            ). Si queda {entry.missedOffers?.length ? 'otro' : 'un'} hueco le avisaremos por correo
            electrónico.
          </p>
        )}
        <button
          type="button"
          className="wk-button wk-button--secondary"
          disabled={busy}
          onClick={() =>
            run(
              () => leaveWaitlist(day),
              'Lista de espera',
              `Ha salido de la lista de espera del ${formatDay(day)}.`,
            )
          }
        >
          Salir de la lista de espera
        </button>
      </div>
    );

  // A day with free slots is booked, not waited for.
  if (!full) return null;

  return (
    <div className="waitlist-box">
      <p>Si alguien cancela, le avisaremos por correo electrónico y le guardaremos el hueco.</p>
      <button
        type="button"
        className="wk-button"
        disabled={busy}
        onClick={() =>
          run(
            () => joinWaitlist(day),
            'Lista de espera',
            `Le avisaremos por correo electrónico si queda un hueco el ${formatDay(day)}.`,
          )
        }
      >
        Avisarme si queda un hueco
      </button>
    </div>
  );
}
