import type { Role } from '@crm/contracts';
import { mintedCaller } from '@crm/testing';
import { signedInStaff } from '../../../../test-support/staff-accounts';
import { startStack, type Stack } from '../../../../test-support/stack';
import type { ConfigService } from '../../src/app';

export type CallerKind = 'anonymous' | Role;
export const CALLER_KINDS: CallerKind[] = ['anonymous', 'PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'];

/**
 * One token per role: the stack's bootstrap accounts through a real sign-in, and a patient whose
 * user exists only in the token (enough for the config service).
 */
export async function tokensByRole(stack: Stack): Promise<Record<Role, string>> {
  const staff = await signedInStaff(stack.api);
  return {
    PACIENT: mintedCaller('PACIENT').token,
    DOCTOR: staff.DOCTOR.token,
    ADMIN: staff.ADMIN.token,
    SERVICE_ACCOUNT: staff.SERVICE_ACCOUNT.token,
  };
}

/** A stack of the gateway, auth and config, with the config service's handle and a token per role. */
export async function startConfigStack(): Promise<{
  stack: Stack;
  service: ConfigService;
  tokens: Record<Role, string>;
}> {
  const stack = await startStack({ components: ['auth', 'config'] });
  return {
    stack,
    service: stack.components.config!.handle as ConfigService,
    tokens: await tokensByRole(stack),
  };
}
