import { randomBytes, randomInt } from 'node:crypto';
import { mintToken } from '@crm/testing';
import { BOOTSTRAP, uniqueEmail, type Stack } from '../../../../test-support/stack';

export interface Staff {
  id: string;
  token: string;
}

async function signIn(
  stack: Stack,
  { email, password }: { email: string; password: string },
): Promise<Staff> {
  const response = await stack.api.post('/auth/signIn', { email, password });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return { id: response.body.id, token: response.body.sessiontoken };
}

/** The stack's bootstrap doctor ("Doctor"), admin ("Administrador") and kiosk, signed in. */
export async function staffOf(stack: Stack): Promise<Record<'DOCTOR' | 'ADMIN' | 'SERVICE_ACCOUNT', Staff>> {
  const [DOCTOR, ADMIN, SERVICE_ACCOUNT] = await Promise.all([
    signIn(stack, BOOTSTRAP.doctor),
    signIn(stack, BOOTSTRAP.admin),
    signIn(stack, BOOTSTRAP.kiosk),
  ]);
  return { DOCTOR, ADMIN, SERVICE_ACCOUNT };
}

/** A patient token for a user that exists only in the token (the records calls refuse it before any lookup). */
export const mintedPatientToken = () => mintToken({ id: randomBytes(12).toString('hex'), rol: 'PACIENT' });

export interface Patient {
  id: string;
  name: string;
  email: string;
  token: string;
}

/** A patient registered by the doctor through the auth API, signed in. */
export async function registerPatient(stack: Stack, doctorToken: string, name: string): Promise<Patient> {
  const person = {
    name,
    phone: `6${randomInt(10_000_000, 99_999_999)}`,
    email: uniqueEmail('patient'),
    password: 'contraseña-de-prueba',
  };
  const created = await stack.api.post('/auth/doctor/patient/create', person, doctorToken);
  if (created.status !== 201)
    throw new Error(`patient creation failed: ${created.status} ${JSON.stringify(created.body)}`);
  return {
    id: created.body.id,
    name,
    email: person.email,
    token: await stack.signIn(person.email, person.password),
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
