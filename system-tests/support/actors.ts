import moment from 'moment-timezone';
import { ROOM_SLOT_RULES, type Role } from '@crm/contracts';
import { mintToken, signInAs } from '@crm/testing';
import { signedUpPatient } from '../../test-support/patients';
import { STAFF_ACCOUNTS, type SystemStack } from './system-stack';
import { renewalWith } from '../../services/records/test/factories/metadata';

export { CALLER_KINDS, type CallerKind } from '../../test-support/authorization-matrix';

export interface Actor {
  id: string;
  rol: Role;
  email: string;
  password: string;
  token: string;
}

/** A patient who signed up on their own, with the session the sign-up gives. */
export const signUpPatient = (
  stack: SystemStack,
  label = 'patient',
  password = 'Paciente1234!',
): Promise<Actor> => signedUpPatient(stack.api, { label, password });

/** One of the system stack's bootstrap accounts, signed in. */
export async function signInStaff(stack: SystemStack, who: keyof typeof STAFF_ACCOUNTS): Promise<Actor> {
  const account = STAFF_ACCOUNTS[who];
  return { ...account, ...(await signInAs(stack.api, account)) };
}

/** A new session (own jti) for a known user: for calls that end the session they use. */
export const freshToken = (actor: Actor) => mintToken({ id: actor.id, rol: actor.rol });

/** A complete clinical record (the seeded driving-licence form), as the back office sends it. */
export function recordMetadata(observations = 'Sin incidencias'): ReturnType<typeof renewalWith> {
  return renewalWith({ observations });
}

let roomDaysUsed = 0;
/** An hourly room slot (10:00 Canary time) on a weekday nobody else in this file used. */
export function freshRoomSlot(hour = 10): string {
  for (;;) {
    roomDaysUsed += 1;
    const day = moment
      .tz(ROOM_SLOT_RULES.timeZone)
      .startOf('day')
      .add(7 + roomDaysUsed, 'days');
    if (day.isoWeekday() <= 5) return day.hour(hour).toISOString();
  }
}
