import { useFocusOnMount } from '@/lib/use-focus-on-mount';
import type { RegisteredArrival } from '../arrival';
import { appointmentWhen } from './appointment-time';

/**
 * Step 3: "¡Todo listo!", the appointment's date and time (the one checked in, or the walk-in just
 * booked: "Su cita es hoy, 12/12/2026, a las 10:00"), the waiting message, "Hecho".
 */
export function CompleteStep({ arrival, onDone }: { arrival?: RegisteredArrival; onDone(): void }) {
  const ref = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="kiosk-form">
      <h1 ref={ref} className="kiosk-title" tabIndex={-1}>
        ¡Todo listo!
      </h1>
      {arrival && (
        <p className="kiosk-message kiosk-message--strong" data-testid="kiosk-appointment-time">
          Su cita es {appointmentWhen(arrival.date, { withDate: true })}
        </p>
      )}
      <p className="kiosk-message">En breve le atenderá nuestro personal. Gracias por su paciencia.</p>
      <button type="button" className="wk-button kiosk-button" onClick={onDone}>
        Hecho
      </button>
    </div>
  );
}
