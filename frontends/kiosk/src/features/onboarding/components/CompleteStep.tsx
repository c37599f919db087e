import { useFocusOnMount } from '@/lib/use-focus-on-mount';
import type { RegisteredArrival } from '../arrival';
import { appointmentWhen } from './appointment-time';

/**
 * Step 3 (SPEC §2): "¡Todo listo!", the waiting message, "Hecho". A patient checked in for an
 * appointment they had booked also reads its time ("Su cita es a las 10:00").
 */
export function CompleteStep({ arrival, onDone }: { arrival?: RegisteredArrival; onDone(): void }) {
  const ref = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="kiosk-form">
      <h1 ref={ref} className="kiosk-title" tabIndex={-1}>
        ¡Todo listo!
      </h1>
      {arrival && !arrival.walkIn && (
        <p className="kiosk-message kiosk-message--strong" data-testid="kiosk-appointment-time">
          Su cita es {appointmentWhen(arrival.date)}
        </p>
      )}
      <p className="kiosk-message">En breve seras atendido por nuestro personal. Gracias por tu paciencia.</p>
      <button type="button" className="wk-button kiosk-button" onClick={onDone}>
        Hecho
      </button>
    </div>
  );
}
