import type { SignInResponse } from '@crm/contracts';
import { api } from '@crm/web-kit';

export interface SignUpBody {
  name: string;
  phone: string;
  email: string;
  password: string;
}

/** POST /auth/signUp — the answer carries the new user's id and a session token. */
export const signUp = (body: SignUpBody) =>
  api.post<Partial<SignInResponse> & { message?: string }>('/auth/signUp', body);
