import type { SignInAnswer } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** POST /auth/signIn — a session, or the second factor's challenge. */
export const signIn = (body: { email: string; password: string }) =>
  api.post<SignInAnswer>('/auth/signIn', body);
