import { randomBytes } from 'node:crypto';
import moment from 'moment-timezone';
import { ROOM_SLOT_RULES, type Role } from '@crm/contracts';
import { mintToken } from '@crm/testing';
import { upcomingSlots } from '../../services/appointments/src/domain/slot-rules';
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

/** A unique, valid e-mail address; `label` lets a test find its own messages in the shared catcher. */
export const uniqueAddress = (label: string) =>
  `${label}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;

/** A valid Spanish mobile number, different on every call. */
export const uniquePhone = () => `6${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}`;

export async function signUpPatient(
  stack: SystemStack,
  label = 'patient',
  password = 'Paciente1234!',
): Promise<Actor> {
  const email = uniqueAddress(label);
  const response = await stack.api.post('/auth/signUp', {
    name: 'Lucía Pérez',
    phone: uniquePhone(),
    email,
    password,
  });
  if (response.status !== 201)
    throw new Error(`sign-up failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.id, rol: 'PACIENT', email, password, token: response.body.sessiontoken };
}

export async function signInStaff(stack: SystemStack, who: keyof typeof STAFF_ACCOUNTS): Promise<Actor> {
  const { email, password } = STAFF_ACCOUNTS[who];
  const response = await stack.api.post('/auth/signIn', { email, password });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return { id: response.body.id, rol: response.body.rol, email, password, token: response.body.sessiontoken };
}

/** A new session (own jti) for a known user: for calls that end the session they use. */
export const freshToken = (actor: Actor) => mintToken({ id: actor.id, rol: actor.rol });

/** A random, well-formed id that names nothing. */
export const unknownId = () => randomBytes(12).toString('hex');

/** Distinct bookable appointment slots from `daysAhead` days on (ISO strings). */
export function slotSource(daysAhead = 3) {
  const slots = upcomingSlots(new Date(Date.now() + daysAhead * 86_400_000));
  return { next: (): string => slots.next().value!.toISOString() };
}

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
