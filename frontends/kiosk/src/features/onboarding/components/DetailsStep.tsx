import type { FormEvent } from 'react';
import { FullNameField, PhoneField } from '@crm/web-kit/forms';
import { useFocusOnMount } from '@/lib/use-focus-on-mount';
import type { OnboardingState } from '../hooks/use-onboarding-flow';

interface DetailsStepProps {
  state: Pick<OnboardingState, 'name' | 'phone' | 'asks' | 'busy' | 'saving' | 'fieldErrors'>;
  onNameChange(name: string): void;
  onPhoneChange(phone: string): void;
  onSubmit(): void;
  /** "Volver": back to "Identifíquese", what was typed kept. */
  onBack(): void;
}

/** Step 2: "Ya casi", only the missing name and/or phone, "Continuar con Cita", and "Volver". */
export function DetailsStep({ state, onNameChange, onPhoneChange, onSubmit, onBack }: DetailsStepProps) {
  const ref = useFocusOnMount<HTMLFormElement>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!state.busy) onSubmit();
  };
  return (
    <form ref={ref} className="kiosk-form" onSubmit={submit} aria-labelledby="kiosk-details-title">
      <h1 id="kiosk-details-title" className="kiosk-title">
        Ya casi
      </h1>
      {state.asks.name && (
        <FullNameField
          autoComplete="off"
          autoCapitalize="words"
          value={state.name}
          error={state.fieldErrors.name}
          onValueChange={onNameChange}
        />
      )}
      {state.asks.phone && (
        <PhoneField
          label="Teléfono"
          name="phone"
          required
          autoComplete="off"
          value={state.phone}
          error={state.fieldErrors.phone}
          onValueChange={onPhoneChange}
        />
      )}
      {/* Side by side where they fit (a landscape screen keeps the whole step in view), else stacked. */}
      <div className="kiosk-actions">
        <button type="submit" className="wk-button kiosk-button" disabled={state.busy}>
          {state.saving ? 'Guardando…' : 'Continuar con Cita'}
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
