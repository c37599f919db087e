/**
 * Patients made for the checks: unique addresses under one run prefix (so Mailpit shows exactly a
 * run's e-mails), a valid Spanish mobile number and a password no list knows.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { SignInResponse } from '@crm/contracts';
import { call, callUntilAnswered, describe, expectStatus, NoAnswer } from './http';
import { signIn, type Session } from './staff';
import type { ComposeTarget } from './target';

export interface Person {
  name: string;
  email: string;
  phone: string;
  password: string;
}

/** A patient account the checks made, with what it takes to sign in again later. */
export interface PatientAccount extends Person {
  id: string;
}

/** A prefix unique to one run of one check: `compose-<time>-<random>-<label>`. */
export const runPrefix = (label: string): string =>
  `compose-${Date.now().toString(36)}-${randomBytes(2).toString('hex')}-${label}`;

export function newPerson(prefix: string, index: number, name = 'Lucía Pérez Comprobación'): Person {
  return {
    name,
    email: `${prefix}-${index}@example.test`,
    phone: `6${String(randomInt(0, 100_000_000)).padStart(8, '0')}`,
    password: `Clave-${randomBytes(6).toString('hex')}-compose`,
  };
}

/** The public sign-up (limited to RATE_LIMIT_AUTH_MAX per client address in 15 minutes). */
export async function signUp(t: ComposeTarget, person: Person): Promise<PatientAccount & Session> {
  const answer = await call(t, 'POST', '/auth/signUp', { body: person });
  const body = expectStatus(answer, 201, `sign-up of ${person.email}`).body;
  return { ...person, id: body.id, rol: 'PACIENT', token: body.sessiontoken };
}

/**
 * A patient a doctor registers with a password (`POST /auth/doctor/patient/create`): confirmed at
 * once, no e-mail, and not limited like the public sign-up. An attempt that got no answer is made
 * again; an address already taken then means the first attempt went through.
 */
export async function registerPatient(
  t: ComposeTarget,
  doctorToken: string,
  person: Person,
): Promise<PatientAccount> {
  let unanswered = false;
  const answer = await callUntilAnswered(async () => {
    try {
      return await call(t, 'POST', '/auth/doctor/patient/create', { token: doctorToken, body: person });
    } catch (error) {
      if (error instanceof NoAnswer) unanswered = true;
      throw error;
    }
  });
  if (answer.status === 409 && unanswered) return { ...person, id: (await signInPatient(t, person)).id };
  if (answer.status !== 201) throw new Error(`registration of ${person.email}: ${describe(answer)}`);
  return { ...person, id: answer.body.id };
}

export async function signInPatient(t: ComposeTarget, person: Pick<Person, 'email' | 'password'>) {
  const body = await signIn(t, person.email, person.password);
  if ('mfaRequired' in body) throw new Error(`${person.email} asks for a second factor`);
  return {
    id: body.id,
    rol: body.rol,
    token: body.sessiontoken,
    confirmed: body.confirmed,
  } satisfies Session & Pick<SignInResponse, 'confirmed'>;
}
