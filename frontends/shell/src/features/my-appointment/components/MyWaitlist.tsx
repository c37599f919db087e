import { useState } from 'react';
import { showRequestError } from '@crm/web-kit';
import { formatDay } from '@crm/web-kit/time';
import { leaveWaitlist, useWaitlist } from '@/lib/waitlist';
import { heldOfferText, missedOffersText } from '@/lib/waitlist-state';
import './my-waitlist.css';

/** Patient area: the days the patient waits for, their place in line, and a slot held for them. */
export function MyWaitlist() {
  const { data, mutate } = useWaitlist();
  const [busy, setBusy] = useState<string | null>(null);
  if (!data?.entries.length) return null;

  const leave = async (day: string) => {
    setBusy(day);
    try {
      await leaveWaitlist(day);
      await mutate();
    } catch (err) {
      void showRequestError(err);
    } finally {
      setBusy(null);
    }
  };

  return (
    <section className="appointment-card my-waitlist" aria-labelledby="my-waitlist-title">
      <h2 id="my-waitlist-title" className="appointment-card__title">
        Listas de espera
      </h2>
      <ul className="my-waitlist__list">
        {data.entries.map((entry) => (
          <li key={entry.day} className="my-waitlist__item" data-testid="waitlist-entry">
            <div>
              <strong>{formatDay(entry.day)}</strong> — puesto {entry.position}
              {entry.offer ? <p className="my-waitlist__offer">{heldOfferText(entry.offer)}</p> : null}
              {!entry.offer && missedOffersText(entry) ? (
                <p className="my-waitlist__missed">
                  {missedOffersText(entry)} Si queda otro hueco libre, le avisaremos por correo electrónico.
                </p>
              ) : null}
            </div>
            <button
              type="button"
              className="wk-button wk-button--secondary"
              disabled={busy === entry.day}
              onClick={() => void leave(entry.day)}
            >
              Salir de la lista
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
