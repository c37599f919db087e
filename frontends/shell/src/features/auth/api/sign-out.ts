import { api } from '@crm/web-kit';

/** POST /auth/signOut — ends this token's session on the server. */
export const signOut = () => api.post<{ message: string }>('/auth/signOut');
