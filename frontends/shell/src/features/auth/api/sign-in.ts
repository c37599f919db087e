import type { SignInResponse } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** POST /auth/signIn */
export const signIn = (body: { email: string; password: string }) =>
  api.post<SignInResponse>('/auth/signIn', body);
