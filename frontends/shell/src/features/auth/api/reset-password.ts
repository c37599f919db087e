import { api } from '@crm/web-kit';

/** POST /auth/resetPassword/:token — answers "Password reset". */
export const resetPassword = (token: string, password: string) =>
  api.post<{ message: string }>(`/auth/resetPassword/${encodeURIComponent(token)}`, { password });
