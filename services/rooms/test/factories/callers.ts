import { randomBytes } from 'node:crypto';
import type { Role } from '@crm/contracts';
import { mintToken } from '@crm/testing';
import { BOOTSTRAP, type Stack } from '../../../../test-support/stack';

export interface Caller {
  id: string;
  token: string;
}

export const newUserId = () => randomBytes(12).toString('hex');

/** A caller with a valid token for a user that exists only in the token (enough for the rooms service). */
export function mintedCaller(rol: Role): Caller {
  const id = newUserId();
  return { id, token: mintToken({ id, rol }) };
}

async function signIn(
  stack: Stack,
  { email, password }: { email: string; password: string },
): Promise<Caller> {
  const response = await stack.api.post('/auth/signIn', { email, password });
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status}`);
  return { id: response.body.id, token: response.body.sessiontoken };
}

/** One caller per role: the stack's bootstrap accounts through a real sign-in, and a minted patient. */
export async function callersByRole(stack: Stack): Promise<Record<Role, Caller>> {
  return {
    PACIENT: mintedCaller('PACIENT'),
    DOCTOR: await signIn(stack, BOOTSTRAP.doctor),
    ADMIN: await signIn(stack, BOOTSTRAP.admin),
    SERVICE_ACCOUNT: await signIn(stack, BOOTSTRAP.kiosk),
  };
}
