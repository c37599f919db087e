import { api } from '@crm/web-kit';

/** POST /auth/resendConfirmation — always answers "Email sent" (no account probing). */
export const resendConfirmation = (email: string) =>
  api.post<{ message: string }>('/auth/resendConfirmation', { email });
