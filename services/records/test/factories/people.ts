import type { SignedIn } from '@crm/testing';
import { registeredPatient } from '../../../../test-support/patients';
import { signedInStaff } from '../../../../test-support/staff-accounts';
import type { Stack } from '../../../../test-support/stack';

export type Staff = SignedIn;

/** The stack's bootstrap doctor ("Doctor"), admin ("Administrador") and kiosk, signed in. */
export const staffOf = (stack: Stack) => signedInStaff(stack.api);

export interface Patient {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** A patient registered by the doctor through the auth API, signed in. */
export async function registerPatient(stack: Stack, doctorToken: string, name: string): Promise<Patient> {
  const patient = await registeredPatient(stack.api, doctorToken, { name });
  return {
    id: patient.id,
    name,
    email: patient.email,
    token: await stack.signIn(patient.email, patient.password),
  };
}

export interface Appointment {
  id: string;
  date: string;
  pacientId: string;
}

/** An appointment booked by staff for the patient through the appointments API. */
export async function bookFor(
  stack: Stack,
  staffToken: string,
  patient: Patient,
  date: string,
): Promise<Appointment> {
  const booked = await stack.api.post('/dates/admin', { date, pacientId: patient.id }, staffToken);
  if (booked.status !== 201)
    throw new Error(`booking failed: ${booked.status} ${JSON.stringify(booked.body)}`);
  return { id: booked.body.id, date: booked.body.date, pacientId: patient.id };
}
