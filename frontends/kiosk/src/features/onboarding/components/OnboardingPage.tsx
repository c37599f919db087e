import { useCallback } from 'react';
import { useNavigate } from 'react-router-dom';
import { closeDialogs } from '@crm/web-kit';
import { KioskCard } from '@/components/KioskCard';
import { StepProgress } from '@/components/StepProgress';
import { IDLE_RESET_MS } from '@/lib/kiosk-timing';
import { useIdleTimeout } from '@/lib/use-idle-timeout';
import { useOnboardingFlow, type OnboardingState } from '../hooks/use-onboarding-flow';
import { ChoiceStep } from './ChoiceStep';
import { CompleteStep } from './CompleteStep';
import { DetailsStep } from './DetailsStep';
import { EmailStep } from './EmailStep';
import { KeptStep } from './KeptStep';

/** The three progress dots: asking (details, or the choice for another day's appointment), then done. */
const STEP_INDEX = { email: 0, details: 1, choice: 1, complete: 2, kept: 2 } as const;

/** When the screen starts over by itself: soon after "¡Todo listo!", later on a form left half-filled. */
function idleDelay(state: OnboardingState): number | null {
  if (state.busy) return null;
  if (state.step === 'complete' || state.step === 'kept') return IDLE_RESET_MS.complete;
  if (state.step === 'details' || state.step === 'choice' || state.email) return IDLE_RESET_MS.form;
  return null;
}

/**
 * /onboarding (docs/product/kiosk.md#steps): e-mail, missing details (or, for an appointment on another
 * day, "be seen now" or keep it), done — one card, one step at a time.
 */
export default function OnboardingPage() {
  const flow = useOnboardingFlow();
  const { state, reset } = flow;
  const navigate = useNavigate();

  // "Hecho" returns to /onboarding with an empty form.
  const startOver = useCallback(() => {
    reset();
    navigate('.', { replace: true });
  }, [reset, navigate]);
  // Left alone: start over, and close an alert nobody is reading any more.
  const startOverWhenIdle = useCallback(() => {
    closeDialogs();
    startOver();
  }, [startOver]);
  useIdleTimeout(idleDelay(state), startOverWhenIdle);

  return (
    <KioskCard busy={state.busy}>
      <StepProgress current={STEP_INDEX[state.step]} />
      {/* A new key per step replays the 0.25 s entrance animation (kiosk.css). */}
      <div key={state.step} className="kiosk-step" data-step={state.step}>
        {state.step === 'email' && (
          <EmailStep
            email={state.email}
            busy={state.busy}
            onEmailChange={flow.setEmail}
            onSubmit={flow.submitEmail}
          />
        )}
        {state.step === 'details' && (
          <DetailsStep
            state={state}
            onNameChange={flow.setName}
            onPhoneChange={flow.setPhone}
            onSubmit={flow.submitDetails}
            onBack={flow.goBack}
          />
        )}
        {state.step === 'choice' && state.held && (
          <ChoiceStep
            held={state.held}
            busy={state.busy}
            onSeeNow={flow.seeNow}
            onKeep={flow.keepAppointment}
          />
        )}
        {state.step === 'complete' && <CompleteStep arrival={state.arrival} onDone={startOver} />}
        {state.step === 'kept' && state.held && <KeptStep held={state.held} onDone={startOver} />}
      </div>
    </KioskCard>
  );
}
