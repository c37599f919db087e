import { api } from '@crm/web-kit';

/** GET /auth/confirmAccount/:token — "Account confirmed" or "Account already activated". */
export const confirmAccount = (token: string) =>
  api.get<{ message: string }>(`/auth/confirmAccount/${encodeURIComponent(token)}`);
