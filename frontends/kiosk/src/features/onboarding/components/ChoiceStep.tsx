import type { HeldAppointment } from '@crm/contracts';
import { useFocusOnMount } from '@/lib/use-focus-on-mount';
import { appointmentWhen } from './appointment-time';

interface ChoiceStepProps {
  held: HeldAppointment;
  busy: boolean;
  onSeeNow(): void;
  onKeep(): void;
}

/**
 * A patient whose appointment is on another day (or later today, before its check-in opens): it is
 * shown, and they choose between being seen now (the server cancels it and books a walk-in in one
 * step) and keeping it.
 */
export function ChoiceStep({ held, busy, onSeeNow, onKeep }: ChoiceStepProps) {
  const ref = useFocusOnMount<HTMLHeadingElement>();
  return (
    <div className="kiosk-form">
      <h1 ref={ref} className="kiosk-title" tabIndex={-1}>
        Ya tiene una cita
      </h1>
      <p className="kiosk-message kiosk-message--strong" data-testid="kiosk-appointment-time">
        Su cita es {appointmentWhen(held.date)}
      </p>
      <p className="kiosk-message">¿Prefiere ser atendido ahora? Si es así, anularemos esa cita.</p>
      <button type="button" className="wk-button kiosk-button" disabled={busy} onClick={onSeeNow}>
        Ser atendido ahora
      </button>
      <button
        type="button"
        className="wk-button wk-button--secondary kiosk-button"
        disabled={busy}
        onClick={onKeep}
      >
        Mantener mi cita
      </button>
    </div>
  );
}
