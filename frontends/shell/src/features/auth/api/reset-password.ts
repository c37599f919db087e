import { api } from '@crm/web-kit';

/**
 * POST /auth/resetPassword/:token — answers "Password reset" and the account's e-mail (the link
 * also confirms the account), so that the page can sign in with the new password at once.
 */
export const resetPassword = (token: string, password: string) =>
  api.post<{ message: string; email?: string }>(`/auth/resetPassword/${encodeURIComponent(token)}`, {
    password,
  });
