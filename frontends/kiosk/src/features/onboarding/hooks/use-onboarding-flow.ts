import { useCallback, useState } from 'react';
import type { HeldAppointment } from '@crm/contracts';
import { normalizeKioskCode } from '@crm/contracts/kiosk-codes';
import { ApiError, MESSAGES, phoneDigits, showError, showSuccess } from '@crm/web-kit';
import { beSeenNow } from '../api/be-seen-now';
import { bookWalkIn } from '../api/book-walk-in';
import { checkInPatient } from '../api/check-in';
import { requestCode } from '../api/request-code';
import { savePatient } from '../api/save-patient';
import { verifyCode } from '../api/verify-code';
import { arrivalDate, heldAppointmentIn, planForHeld, type RegisteredArrival } from '../arrival';
import { NEW_PATIENT_ASKS, planAfterProof, type AskedFields } from '../onboarding-plan';
import { patientIdOf, type SaveOperation } from '../types';

/**
 * email → identify (the booking code, or a code e-mailed on request; or "Es mi primera visita") →
 * details (only what is missing, or name and phone of a new patient) → complete; a patient whose
 * appointment is on another day (or later today) goes to `choice` ("be seen now" or keep it), and
 * keeping it ends on `kept` (docs/product/kiosk.md#flow).
 */
export type OnboardingStep = 'email' | 'identify' | 'details' | 'choice' | 'complete' | 'kept';

export interface OnboardingState {
  step: OnboardingStep;
  email: string;
  name: string;
  /** As shown in the field ("+34 612 345 678"); only its digits are sent. */
  phone: string;
  /** The code typed on "Identifíquese": the booking code or the e-mailed one. */
  code: string;
  /** A code was e-mailed on request ("Identifíquese" says where to find it). */
  codeSent: boolean;
  /**
   * The kiosk's proof for the patient's calls once a code matched (or the one the creation of a new
   * patient handed over); the booking code of the walk-in once one is booked.
   */
  proof?: string;
  operation: SaveOperation;
  /** The details step shows only the fields the patient is missing. */
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
  /** Server messages for the fields of the details and identify steps. */
  fieldErrors: { name?: string; phone?: string; code?: string };
}

export const INITIAL_ONBOARDING: OnboardingState = {
  step: 'email',
  email: '',
  name: '',
  phone: '',
  code: '',
  codeSent: false,
  operation: 'create',
  asks: { name: false, phone: false },
  busy: false,
  saving: false,
  fieldErrors: {},
};

export type KioskAlert = (typeof MESSAGES.kiosk)[keyof typeof MESSAGES.kiosk];

/**
 * Creating a patient was refused because an account already uses the e-mail (a patient's, or a
 * staff member's): the person proves it is theirs instead.
 */
export const ACCOUNT_EXISTS_ALERT = {
  title: 'Ya existe una cuenta con este correo',
  text: 'Escriba el código de su cita o pida un código por correo electrónico para continuar.',
} as const;

/** The server's own reason for refusing (e.g. "El paciente no tiene ninguna cita para hoy"), if it gave one. */
function reasonOf(error: unknown): string | undefined {
  if (error instanceof ApiError && !error.isServerFailure) return error.errors[0]?.message ?? error.message;
  return undefined;
}

/** The kiosk's alerts: a dialog with the alert as its title, and a console entry. */
function alertFailure(message: KioskAlert, error?: unknown): void {
  console.error(`kiosk: ${message}`, error instanceof Error ? error.message : (error ?? ''));
  void showError(message, reasonOf(error));
}

function fieldErrorsOf(error: unknown): OnboardingState['fieldErrors'] {
  if (!(error instanceof ApiError)) return {};
  const fields: OnboardingState['fieldErrors'] = {};
  for (const { field, message } of error.errors) {
    if ((field === 'name' || field === 'phone' || field === 'code') && !fields[field])
      fields[field] = message;
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
async function checkInFor(
  patientId: string,
  proof: string,
  booked: { date?: string } | undefined,
): Promise<Next> {
  const done = (date: string | undefined): Next => ({
    step: 'complete',
    arrival: date ? { date } : undefined,
  });
  try {
    return done(arrivalDate(await checkInPatient(patientId, proof), booked));
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return done(arrivalDate(booked));
    alertFailure(MESSAGES.kiosk.bookingFailed, error);
    return null;
  }
}

/** The patient already holds `held`: registered, check it in, or offer "be seen now". */
function afterHeld(patientId: string, proof: string, held: HeldAppointment): Promise<Next> | Next {
  switch (planForHeld(held)) {
    case 'registered':
      return { step: 'complete', arrival: { date: held.date } };
    case 'checkIn':
      return checkInFor(patientId, proof, held);
    case 'offer':
      return { step: 'choice', held };
  }
}

/**
 * The walk-in's own booking code proves the patient from then on: a booking code given before may
 * have died with the appointment it replaced ("be seen now"); an e-mailed code still works too.
 */
const proofAfterBooking = (proof: string, booked: { bookingCode?: string } | undefined) =>
  booked?.bookingCode ?? proof;

/**
 * The patient is at the centre: books a walk-in (POST /dates/service) and checks it in; a patient
 * who already holds an appointment (409 carrying it) is checked in for it, or — on another day —
 * offered "be seen now". Every call carries the proof.
 */
async function registerArrival(patientId: string | undefined, proof: string | undefined): Promise<Next> {
  if (!patientId || !proof) {
    alertFailure(MESSAGES.kiosk.missingPatientId);
    return null;
  }
  let walkIn;
  try {
    walkIn = await bookWalkIn(patientId, proof);
  } catch (error) {
    const held = heldIn(error);
    if (held) return afterHeld(patientId, proof, held);
    alertFailure(MESSAGES.kiosk.bookingFailed, error);
    return null;
  }
  const next = await checkInFor(patientId, proofAfterBooking(proof, walkIn), walkIn);
  return next && { ...next, proof: proofAfterBooking(proof, walkIn) };
}

/**
 * The kiosk's flow (docs/product/kiosk.md#flow): the e-mail; then proof that the account is the
 * person's — the booking code, or a code e-mailed on request — or "Es mi primera visita" (name and
 * phone, a new patient); the missing details of a known account; the arrival (walk-in, check-in of
 * the appointment of today, or the choice for another day). After any failure the flow stays on its
 * step, with a Spanish dialog.
 */
export function useOnboardingFlow() {
  const [state, setState] = useState<OnboardingState>(INITIAL_ONBOARDING);
  const patch = useCallback(
    (changes: Partial<OnboardingState>) => setState((current) => ({ ...current, ...changes })),
    [],
  );

  /** "Continuar" on "Bienvenido": nothing is asked of the server yet (it would tell nothing anyway). */
  const submitEmail = useCallback(() => {
    patch({ step: 'identify', code: '', codeSent: false, proof: undefined, fieldErrors: {} });
  }, [patch]);

  /** "Enviarme un código por correo": the same answer whether or not the address has an account. */
  const sendCode = useCallback(async () => {
    patch({ busy: true, fieldErrors: {} });
    try {
      const sent = await requestCode(state.email.trim());
      patch({ busy: false, codeSent: true, code: '' });
      void showSuccess('Código enviado', sent.message);
    } catch (error) {
      patch({ busy: false });
      alertFailure(MESSAGES.kiosk.codeRequestFailed, error);
    }
  }, [state.email, patch]);

  /** "Continuar" on "Identifíquese": the code proves the account, then what it lacks or the arrival. */
  const submitCode = useCallback(async () => {
    const code = normalizeKioskCode(state.code);
    patch({ busy: true, fieldErrors: {} });
    let proof;
    try {
      proof = await verifyCode(state.email.trim(), code);
    } catch (error) {
      patch({ busy: false, fieldErrors: fieldErrorsOf(error) });
      alertFailure(MESSAGES.kiosk.codeFailed, error);
      return;
    }
    const plan = planAfterProof(proof, code);
    const known = { proof: code, patientId: proof.pacientId, operation: 'update' as const };
    if (plan.next === 'details') {
      patch({ busy: false, step: 'details', asks: plan.asks, name: '', phone: '', ...known });
      return;
    }
    const next = await registerArrival(proof.pacientId, code);
    patch({ busy: false, ...known, ...next });
  }, [state.email, state.code, patch]);

  /** "Es mi primera visita": name and phone of a new patient. */
  const firstVisit = useCallback(
    () =>
      patch({
        step: 'details',
        operation: 'create',
        asks: NEW_PATIENT_ASKS,
        proof: undefined,
        patientId: undefined,
        fieldErrors: {},
      }),
    [patch],
  );

  const submitDetails = useCallback(async () => {
    patch({ busy: true, saving: true, fieldErrors: {} });
    let saved;
    try {
      saved = await savePatient({
        email: state.email.trim(),
        name: state.asks.name ? state.name.trim() : '',
        phone: state.asks.phone ? phoneDigits(state.phone) : '',
        operation: state.operation,
        ...(state.operation === 'update' && state.proof ? { code: state.proof } : {}),
      });
    } catch (error) {
      if (state.operation === 'create' && isEmailTaken(error)) {
        // The address has an account (a patient's, or staff's): prove it is yours instead.
        console.error(`kiosk: ${ACCOUNT_EXISTS_ALERT.title}`);
        void showError(ACCOUNT_EXISTS_ALERT.title, ACCOUNT_EXISTS_ALERT.text);
        patch({ busy: false, saving: false, step: 'identify', code: '', fieldErrors: {} });
        return;
      }
      patch({ busy: false, saving: false, fieldErrors: fieldErrorsOf(error) });
      alertFailure(MESSAGES.kiosk.saveFailed, error);
      return;
    }
    const patientId = patientIdOf(saved?.data) ?? state.patientId;
    const proof = saved?.code ?? state.proof;
    // Once saved the patient exists: a retry after a failed booking updates instead of creating again.
    if (patientId && proof) patch({ operation: 'update', patientId, proof });
    const next = await registerArrival(patientId, proof);
    patch({ busy: false, saving: false, ...next });
  }, [state, patch]);

  /** "Ser atendido ahora": the server swaps the future appointment for a walk-in, then check-in. */
  const seeNow = useCallback(async () => {
    const { patientId, proof } = state;
    if (!patientId || !proof) {
      alertFailure(MESSAGES.kiosk.missingPatientId);
      return;
    }
    patch({ busy: true });
    let next: Next;
    try {
      const walkIn = await beSeenNow(patientId, proof);
      const walkInProof = proofAfterBooking(proof, walkIn);
      next = await checkInFor(patientId, walkInProof, walkIn);
      // Swapped, but the check-in failed: the appointment shown is cancelled now, so the choice is
      // gone. "Identifíquese" with the walk-in's code typed in: "Continuar" finds it and checks it in.
      next = next
        ? { ...next, proof: walkInProof }
        : { step: 'identify', held: undefined, code: walkInProof, proof: walkInProof };
    } catch (error) {
      const held = heldIn(error);
      // Its time has come meanwhile (check it in), or another press already swapped it.
      const plan = held && planForHeld(held);
      if (held && plan !== 'offer') next = await afterHeld(patientId, proof, held);
      else {
        alertFailure(MESSAGES.kiosk.bookingFailed, error);
        next = null;
      }
    }
    patch({ busy: false, ...next });
  }, [state, patch]);

  /**
   * "Volver": from "Ya casi" to "Identifíquese", from there to "Bienvenido"; what was typed is kept
   * (the e-mail, and the name and phone of a new patient).
   */
  const goBack = useCallback(
    () =>
      setState((current) => ({
        ...current,
        step: current.step === 'details' ? 'identify' : 'email',
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
    setCode: (code: string) => patch({ code }),
    submitEmail,
    sendCode,
    submitCode,
    firstVisit,
    submitDetails,
    seeNow,
    keepAppointment,
    goBack,
    reset,
  };
}
