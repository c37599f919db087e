import type { Role } from '@crm/contracts';
import { mintedCaller } from '@crm/testing';
import { signedInStaff } from '../../../../test-support/staff-accounts';
import type { Stack } from '../../../../test-support/stack';

export interface Caller {
  id: string;
  token: string;
}

/**
 * One caller per role: the stack's bootstrap accounts through a real sign-in, and a patient whose
 * user exists only in the token (enough for the rooms service).
 */
export async function callersByRole(stack: Stack): Promise<Record<Role, Caller>> {
  return { PACIENT: mintedCaller('PACIENT'), ...(await signedInStaff(stack.api)) };
}
