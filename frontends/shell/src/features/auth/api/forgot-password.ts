import { api } from '@crm/web-kit';

/** POST /auth/forgotPassword — answers "Email sent". */
export const forgotPassword = (body: { name: string; email: string }) =>
  api.post<{ message: string }>('/auth/forgotPassword', body);
