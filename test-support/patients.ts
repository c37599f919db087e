/**
 * Patients for tests, made through the API as the product makes them: registered by a doctor
 * (confirmed at once) or signed up on their own (the sign-up answers with a session).
 */
import { randomInt } from 'node:crypto';
import { uniqueEmail, type ApiClient } from '@crm/testing';

/** A valid Spanish mobile number, different on (nearly) every call. */
export const uniquePhone = (): string => `6${String(randomInt(0, 100_000_000)).padStart(8, '0')}`;

/** The password of the patients made here, unless a test gives one. */
export const PATIENT_PASSWORD = 'contraseña-de-prueba';

export interface NewPatient {
  name?: string;
  /** Goes into the unique e-mail address, so that a test finds its own messages. */
  label?: string;
  phone?: string;
  password?: string;
}

const person = ({
  name = 'Lucía Pérez',
  label = 'patient',
  phone = uniquePhone(),
  password = PATIENT_PASSWORD,
}: NewPatient) => ({
  name,
  phone,
  email: uniqueEmail(label),
  password,
});

/** A patient a doctor registered (`POST /auth/doctor/patient/create`): confirmed, not signed in. */
export async function registeredPatient(api: ApiClient, doctorToken: string, patient: NewPatient = {}) {
  const body = person(patient);
  const created = await api.post('/auth/doctor/patient/create', body, doctorToken);
  if (created.status !== 201)
    throw new Error(`patient creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return { ...body, id: created.body.id as string, phone: created.body.phone as string };
}

/** A patient who signed up on their own (`POST /auth/signUp`), with the session the sign-up gives. */
export async function signedUpPatient(api: ApiClient, patient: NewPatient = {}) {
  const body = person(patient);
  const response = await api.post('/auth/signUp', body);
  if (response.status !== 201)
    throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  return {
    ...body,
    id: response.body.id as string,
    rol: 'PACIENT' as const,
    token: response.body.sessiontoken as string,
  };
}
