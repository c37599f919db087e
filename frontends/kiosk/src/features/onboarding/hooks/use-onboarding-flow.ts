import { useCallback, useState } from 'react';
import type { HeldAppointment } from '@crm/contracts';
import { ApiError, MESSAGES, displayPhone, phoneDigits, showError } from '@crm/web-kit';
import { beSeenNow } from '../api/be-seen-now';
import { bookWalkIn } from '../api/book-walk-in';
import { checkInPatient } from '../api/check-in';
import { fetchPatientByEmail } from '../api/fetch-patient-by-email';
import { savePatient } from '../api/save-patient';
import { arrivalDate, heldAppointmentIn, planForHeld, type RegisteredArrival } from '../arrival';
import { planAfterLookup, type AskedFields } from '../onboarding-plan';
import { patientIdOf, type KioskPatient, type SaveOperation } from '../types';

/**
 * email → details (only what is missing) → complete; a patient whose appointment is on another day
 * (or later today) goes to `choice` ("be seen now" or keep it), and keeping it ends on `kept`.
 */
export type OnboardingStep = 'email' | 'details' | 'choice' | 'complete' | 'kept';

export interface OnboardingState {
  step: OnboardingStep;
  email: string;
  name: string;
  /** As shown in the field ("+34 612 345 678"); only its digits are sent. */
  phone: string;
  operation: SaveOperation;
  /** The details step shows only the fields the patient is missing (docs/product/kiosk.md#flow). */
  asks: AskedFields;
  patientId?: string;
  /** The appointment the patient already holds on another day (steps `choice` and `kept`). */
  held?: HeldAppointment;
  /** The appointment the patient was checked in for (step `complete`). */
  arrival?: RegisteredArrival;
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

/**
 * A staff member's e-mail typed at the kiosk: the lookup only sees patients (404), and creating a
 * patient with it is refused (409 on `email`, the address is taken by a staff account).
 */
export const STAFF_EMAIL_ALERT = {
  title: 'Este correo pertenece al personal del centro',
  text: 'Para registrarse como paciente, escriba otro correo electrónico.',
} as const;

/** The server's own reason for refusing (e.g. "El paciente no tiene ninguna cita para hoy"), if it gave one. */
function reasonOf(error: unknown): string | undefined {
  if (error instanceof ApiError && !error.isServerFailure) return error.errors[0]?.message ?? error.message;
  return undefined;
}

/**
 * A kiosk alert (docs/product/kiosk.md#alerts): a dialog with the message as its title, and a console entry.
 */
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

/** Creating a patient was refused because an account already uses the e-mail. */
const isEmailTaken = (error: unknown) =>
  error instanceof ApiError && error.status === 409 && error.errors.some((e) => e.field === 'email');

const heldIn = (error: unknown) =>
  error instanceof ApiError ? heldAppointmentIn(error.status, error.body) : undefined;

/** What the flow moves to once the arrival is dealt with; `null` after a failure (alert shown). */
type Next = Partial<OnboardingState> | null;

/**
 * Checks the patient in for the appointment they hold (or the walk-in just booked, `booked` being the
 * booking's answer). A 409 means someone checked them in a moment ago: they are registered all the
 * same. The time told is the server's (the check-in's answer, else the booking's).
 */
async function checkInFor(patientId: string, booked: { date?: string } | undefined): Promise<Next> {
  const done = (date: string | undefined): Next => ({
    step: 'complete',
    arrival: date ? { date } : undefined,
  });
  try {
    return done(arrivalDate(await checkInPatient(patientId), booked));
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return done(arrivalDate(booked));
    alertFailure(MESSAGES.kiosk.bookingFailed, error);
    return null;
  }
}

/** The patient already holds `held`: registered, check it in, or offer "be seen now". */
function afterHeld(patientId: string, held: HeldAppointment): Promise<Next> | Next {
  switch (planForHeld(held)) {
    case 'registered':
      return { step: 'complete', arrival: { date: held.date } };
    case 'checkIn':
      return checkInFor(patientId, held);
    case 'offer':
      return { step: 'choice', held };
  }
}

/**
 * The patient is at the centre: books a walk-in (POST /dates/service) and checks it in; a patient
 * who already holds an appointment (409 carrying it) is checked in for it, or — on another day —
 * offered "be seen now".
 */
async function registerArrival(patientId: string | undefined): Promise<Next> {
  if (!patientId) {
    alertFailure(MESSAGES.kiosk.missingPatientId);
    return null;
  }
  let walkIn;
  try {
    walkIn = await bookWalkIn(patientId);
  } catch (error) {
    const held = heldIn(error);
    if (held) return afterHeld(patientId, held);
    alertFailure(MESSAGES.kiosk.bookingFailed, error);
    return null;
  }
  return checkInFor(patientId, walkIn);
}

/**
 * The kiosk flow (docs/product/kiosk.md#flow): e-mail → lookup; unknown → ask name and phone (create); known
 * → ask only what is missing (update), or go on at once when nothing is; saving returns the id used to
 * register the arrival (walk-in, or check-in of the appointment of today, or the choice for another day).
 * After any failure the flow stays on its step, with one of the four alerts (docs/product/kiosk.md#alerts).
 */
export function useOnboardingFlow() {
  const [state, setState] = useState<OnboardingState>(INITIAL_ONBOARDING);
  const patch = useCallback(
    (changes: Partial<OnboardingState>) => setState((current) => ({ ...current, ...changes })),
    [],
  );

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
        // Back from "Ya casi" ("Volver"): what the person typed there is kept for the fields asked again.
        ...(plan.asks.name && state.name ? { name: state.name } : {}),
        ...(plan.asks.phone && state.phone ? { phone: state.phone } : {}),
        fieldErrors: {},
      });
      return;
    }
    // Known and complete: nothing to ask, register the arrival straight away.
    const next = await registerArrival(plan.patientId);
    patch({ busy: false, operation: plan.operation, ...shown, ...next });
  }, [state.email, state.name, state.phone, patch]);

  const submitDetails = useCallback(async () => {
    patch({ busy: true, saving: true, fieldErrors: {} });
    const email = state.email.trim();
    let operation = state.operation;
    let saved: KioskPatient | undefined;
    for (;;) {
      try {
        saved = await savePatient({
          email,
          name: state.name.trim(),
          // Only a phone the step asked for is sent: a stored one is already on the server as it is.
          phone: state.asks.phone ? phoneDigits(state.phone) : '',
          operation,
        });
        break;
      } catch (error) {
        if (operation === 'create' && isEmailTaken(error)) {
          // Taken, yet the lookup found no patient: a staff account — unless a patient with this
          // e-mail was created a moment ago (another terminal), who is then completed instead.
          const owner = await fetchPatientByEmail(email).catch(() => undefined);
          if (owner === null) {
            console.error(`kiosk: ${STAFF_EMAIL_ALERT.title}`);
            void showError(STAFF_EMAIL_ALERT.title, STAFF_EMAIL_ALERT.text);
            patch({ ...INITIAL_ONBOARDING, email: state.email });
            return;
          }
          if (owner) {
            operation = 'update';
            continue;
          }
        }
        patch({ busy: false, saving: false, fieldErrors: detailsFieldErrors(error) });
        alertFailure(MESSAGES.kiosk.saveFailed, error);
        return;
      }
    }
    const patientId = patientIdOf(saved);
    // Once saved the patient exists: a retry after a failed booking updates instead of creating again.
    if (patientId) patch({ operation: 'update', patientId });
    const next = await registerArrival(patientId);
    patch({ busy: false, saving: false, ...next });
  }, [state.email, state.name, state.phone, state.asks.phone, state.operation, patch]);

  /** "Ser atendido ahora": the server swaps the future appointment for a walk-in, then check-in. */
  const seeNow = useCallback(async () => {
    const { patientId } = state;
    if (!patientId) {
      alertFailure(MESSAGES.kiosk.missingPatientId);
      return;
    }
    patch({ busy: true });
    let next: Next;
    try {
      const walkIn = await beSeenNow(patientId);
      next = await checkInFor(patientId, walkIn);
      // Swapped, but the check-in failed: the appointment shown is cancelled now, so the choice is
      // gone. "Bienvenido" with the e-mail kept: "Continuar" finds the walk-in and checks it in.
      if (!next) next = { step: 'email', held: undefined };
    } catch (error) {
      const held = heldIn(error);
      // Its time has come meanwhile (check it in), or another press already swapped it.
      const plan = held && planForHeld(held);
      if (held && plan !== 'offer') next = await afterHeld(patientId, held);
      else {
        alertFailure(MESSAGES.kiosk.bookingFailed, error);
        next = null;
      }
    }
    patch({ busy: false, ...next });
  }, [state, patch]);

  /**
   * "Volver" on "Ya casi": back to the e-mail, kept as typed; the name and phone typed on "Ya casi"
   * are kept for when it is asked again, the server's prefilled values are not.
   */
  const goBack = useCallback(
    () =>
      setState((current) => ({
        ...current,
        step: 'email',
        name: current.asks.name ? current.name : '',
        phone: current.asks.phone ? current.phone : '',
        asks: INITIAL_ONBOARDING.asks,
        fieldErrors: {},
      })),
    [],
  );

  /** "Mantener mi cita": nothing changes on the server. */
  const keepAppointment = useCallback(() => patch({ step: 'kept' }), [patch]);

  const reset = useCallback(() => setState(INITIAL_ONBOARDING), []);

  return {
    state,
    setEmail: (email: string) => patch({ email }),
    setName: (name: string) => patch({ name }),
    setPhone: (phone: string) => patch({ phone }),
    submitEmail,
    submitDetails,
    seeNow,
    keepAppointment,
    goBack,
    reset,
  };
}
