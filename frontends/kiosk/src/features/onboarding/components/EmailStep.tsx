import type { FormEvent } from 'react';
import { EmailField } from '@crm/web-kit/forms';
import { useFocusOnMount } from '@/lib/use-focus-on-mount';

interface EmailStepProps {
  email: string;
  busy: boolean;
  onEmailChange(email: string): void;
  onSubmit(): void;
}

/** Step 1 (docs/product/kiosk.md#email-step): "Bienvenido", the e-mail, "Continuar". */
export function EmailStep({ email, busy, onEmailChange, onSubmit }: EmailStepProps) {
  const ref = useFocusOnMount<HTMLFormElement>();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  return (
    <form ref={ref} className="kiosk-form" onSubmit={submit} aria-labelledby="kiosk-email-title">
      <h1 id="kiosk-email-title" className="kiosk-title">
        Bienvenido
      </h1>
      <EmailField
        // A shared terminal must never offer the previous person's address.
        autoComplete="off"
        autoCapitalize="none"
        autoCorrect="off"
        spellCheck={false}
        inputMode="email"
        value={email}
        onValueChange={onEmailChange}
      />
      <button type="submit" className="wk-button kiosk-button" disabled={busy}>
        Continuar
      </button>
    </form>
  );
}
