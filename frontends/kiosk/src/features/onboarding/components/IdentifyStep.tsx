import type { FormEvent } from 'react';
import { TextField } from '@crm/web-kit/forms';
import { useFocusOnMount } from '@/lib/use-focus-on-mount';
import type { OnboardingState } from '../hooks/use-onboarding-flow';

interface IdentifyStepProps {
  state: Pick<OnboardingState, 'email' | 'code' | 'codeSent' | 'busy' | 'fieldErrors'>;
  onCodeChange(code: string): void;
  onSubmit(): void;
  onSendCode(): void;
  onFirstVisit(): void;
  /** "Volver": back to the e-mail, as typed. */
  onBack(): void;
}

/**
 * "Identifíquese" (docs/product/kiosk.md#identify-step): the booking code of the appointment (in its
 * confirmation e-mail and the patient area) or a code e-mailed now; or "Es mi primera visita".
 */
export function IdentifyStep({
  state,
  onCodeChange,
  onSubmit,
  onSendCode,
  onFirstVisit,
  onBack,
}: IdentifyStepProps) {
  const ref = useFocusOnMount<HTMLFormElement>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!state.busy) onSubmit();
  };
  return (
    <form
      ref={ref}
      className="kiosk-form"
      onSubmit={submit}
      aria-labelledby="kiosk-identify-title"
      noValidate
    >
      <h1 id="kiosk-identify-title" className="kiosk-title">
        Identifíquese
      </h1>
      <p className="kiosk-message" data-testid="kiosk-identify-help">
        {state.codeSent
          ? `Le hemos enviado un código de 6 cifras a ${state.email.trim()}. Escríbalo aquí.`
          : 'Escriba el código de su cita (está en el correo de confirmación) o pida un código por correo electrónico.'}
      </p>
      <TextField
        label="Código"
        name="code"
        required
        // A shared terminal must never offer the previous person's code.
        autoComplete="off"
        autoCapitalize="characters"
        autoCorrect="off"
        spellCheck={false}
        maxLength={8}
        value={state.code}
        error={state.fieldErrors.code}
        onValueChange={onCodeChange}
      />
      <div className="kiosk-actions">
        <button type="submit" className="wk-button kiosk-button" disabled={state.busy || !state.code.trim()}>
          Continuar
        </button>
        <button
          type="button"
          className="wk-button wk-button--secondary kiosk-button"
          disabled={state.busy}
          onClick={onSendCode}
        >
          {state.codeSent ? 'Enviar otro código' : 'Enviarme un código por correo'}
        </button>
      </div>
      <div className="kiosk-actions">
        <button
          type="button"
          className="wk-button wk-button--secondary kiosk-button"
          disabled={state.busy}
          onClick={onFirstVisit}
        >
          Es mi primera visita
        </button>
        <button
          type="button"
          className="wk-button wk-button--secondary kiosk-button"
          disabled={state.busy}
          onClick={onBack}
        >
          Volver
        </button>
      </div>
    </form>
  );
}
