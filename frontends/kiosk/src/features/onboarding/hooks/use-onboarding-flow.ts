import { useCallback, useState } from 'react';
import { ApiError, MESSAGES, displayPhone, phoneDigits, showError } from '@crm/web-kit';
import { bookWalkIn } from '../api/book-walk-in';
import { fetchPatientByEmail } from '../api/fetch-patient-by-email';
import { savePatient } from '../api/save-patient';
import { planAfterLookup, type AskedFields } from '../onboarding-plan';
import { patientIdOf, type SaveOperation } from '../types';

export type OnboardingStep = 'email' | 'details' | 'complete';

export interface OnboardingState {
  step: OnboardingStep;
  email: string;
  name: string;
  /** As shown in the field ("+34 612 345678"); only its digits are sent. */
  phone: string;
  operation: SaveOperation;
  /** The details step shows only the fields the patient is missing (SPEC §4 "Kiosk flow"). */
  asks: AskedFields;
  patientId?: string;
  /** A request is running: the "Cargando..." overlay covers the card. */
  busy: boolean;
  /** The details are being saved: the button reads "Guardando…". */
  saving: boolean;
  /** Server messages for the fields of the details step. */
  fieldErrors: { name?: string; phone?: string };
}

export const INITIAL_ONBOARDING: OnboardingState = {
  step: 'email',
  email: '',
  name: '',
  phone: '',
  operation: 'create',
  asks: { name: false, phone: false },
  busy: false,
  saving: false,
  fieldErrors: {},
};

export type KioskAlert = (typeof MESSAGES.kiosk)[keyof typeof MESSAGES.kiosk];

/** The server's own reason for refusing (e.g. "El paciente ya tiene una cita reservada"), if it gave one. */
function reasonOf(error: unknown): string | undefined {
  if (error instanceof ApiError && !error.isServerFailure) return error.errors[0]?.message;
  return undefined;
}

/** SPEC §8 kiosk alerts: a dialog with the spec's message as its title, and a console entry. */
function alertFailure(message: KioskAlert, error?: unknown): void {
  console.error(`kiosk: ${message}`, error instanceof Error ? error.message : (error ?? ''));
  void showError(message, reasonOf(error));
}

function detailsFieldErrors(error: unknown): OnboardingState['fieldErrors'] {
  if (!(error instanceof ApiError)) return {};
  const fields: OnboardingState['fieldErrors'] = {};
  for (const { field, message } of error.errors) {
    if ((field === 'name' || field === 'phone') && !fields[field]) fields[field] = message;
  }
  return fields;
}

/**
 * The kiosk flow of SPEC §4: e-mail → lookup; unknown → ask name and phone (create); known → ask only
 * what is missing (update), or book at once when nothing is; saving returns the id used to book
 * through POST /dates/service. After any failure the flow stays on its step, with one of the four
 * alerts of SPEC §8.
 */
export function useOnboardingFlow() {
  const [state, setState] = useState<OnboardingState>(INITIAL_ONBOARDING);
  const patch = useCallback(
    (changes: Partial<OnboardingState>) => setState((current) => ({ ...current, ...changes })),
    [],
  );

  const book = useCallback(async (patientId: string | undefined): Promise<boolean> => {
    if (!patientId) {
      alertFailure(MESSAGES.kiosk.missingPatientId);
      return false;
    }
    try {
      await bookWalkIn(patientId);
      return true;
    } catch (error) {
      alertFailure(MESSAGES.kiosk.bookingFailed, error);
      return false;
    }
  }, []);

  const submitEmail = useCallback(async () => {
    const email = state.email.trim();
    patch({ busy: true });
    let patient;
    try {
      patient = await fetchPatientByEmail(email);
    } catch (error) {
      patch({ busy: false });
      alertFailure(MESSAGES.kiosk.lookupFailed, error);
      return;
    }
    const plan = planAfterLookup(patient);
    const shown = { name: plan.name, phone: displayPhone(plan.phone), patientId: plan.patientId };
    if (plan.next === 'details') {
      patch({
        busy: false,
        step: 'details',
        operation: plan.operation,
        asks: plan.asks,
        ...shown,
        fieldErrors: {},
      });
      return;
    }
    // Known and complete: nothing to ask, book straight away.
    const booked = await book(plan.patientId);
    patch({ busy: false, operation: plan.operation, ...shown, ...(booked ? { step: 'complete' } : {}) });
  }, [state.email, patch, book]);

  const submitDetails = useCallback(async () => {
    patch({ busy: true, saving: true, fieldErrors: {} });
    let saved;
    try {
      saved = await savePatient({
        email: state.email.trim(),
        name: state.name.trim(),
        phone: phoneDigits(state.phone),
        operation: state.operation,
      });
    } catch (error) {
      patch({ busy: false, saving: false, fieldErrors: detailsFieldErrors(error) });
      alertFailure(MESSAGES.kiosk.saveFailed, error);
      return;
    }
    const patientId = patientIdOf(saved);
    // Once saved the patient exists: a retry after a failed booking updates instead of creating again.
    if (patientId) patch({ operation: 'update', patientId });
    const booked = await book(patientId);
    patch({ busy: false, saving: false, ...(booked ? { step: 'complete' } : {}) });
  }, [state.email, state.name, state.phone, state.operation, patch, book]);

  const reset = useCallback(() => setState(INITIAL_ONBOARDING), []);

  return {
    state,
    setEmail: (email: string) => patch({ email }),
    setName: (name: string) => patch({ name }),
    setPhone: (phone: string) => patch({ phone }),
    submitEmail,
    submitDetails,
    reset,
  };
}
