import { randomBytes } from 'node:crypto';
import type { Role } from '@crm/contracts';
import { mintToken } from '@crm/testing';
import { BOOTSTRAP, startStack, type Stack } from '../../../../test-support/stack';
import type { ConfigService } from '../../src/app';

export type CallerKind = 'anonymous' | Role;
export const CALLER_KINDS: CallerKind[] = ['anonymous', 'PACIENT', 'DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'];

/** A token for a user that exists only in the token (enough for the config service). */
export const mintedToken = (rol: Role) => mintToken({ id: randomBytes(12).toString('hex'), rol });

/** One token per role: the stack's bootstrap accounts through a real sign-in, and a minted patient. */
export async function tokensByRole(stack: Stack): Promise<Record<Role, string>> {
  const [DOCTOR, ADMIN, SERVICE_ACCOUNT] = await Promise.all([
    stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password),
    stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password),
    stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password),
  ]);
  return { PACIENT: mintedToken('PACIENT'), DOCTOR, ADMIN, SERVICE_ACCOUNT };
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
