import type { HeldAppointment } from '@crm/contracts';
import { useFocusOnMount } from '@/lib/use-focus-on-mount';
import { appointmentWhen } from './appointment-time';

/** The patient kept their appointment of another day: when to come back, and "Hecho". */
export function KeptStep({ held, onDone }: { held: HeldAppointment; onDone(): void }) {
  const ref = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="kiosk-form">
      <h1 ref={ref} className="kiosk-title" tabIndex={-1}>
        ¡Hasta pronto!
      </h1>
      <p className="kiosk-message kiosk-message--strong" data-testid="kiosk-appointment-time">
        Le esperamos {appointmentWhen(held.date)}
      </p>
      <p className="kiosk-message">Su cita se mantiene como estaba.</p>
      <button type="button" className="wk-button kiosk-button" onClick={onDone}>
        Hecho
      </button>
    </div>
  );
}
