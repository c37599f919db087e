import { apiRequest, downloadFile } from '@crm/web-kit';

/** GET /users/me/export — "Descargar mis datos", as a readable PDF or as JSON. */
export const downloadMyData = (format: 'pdf' | 'json') =>
  downloadFile('/users/me/export', {
    accept: format === 'pdf' ? 'application/pdf' : 'application/json',
    fallbackName: `mis-datos.${format}`,
    query: { format },
  });

/** DELETE /users/me — erases the account; the password confirms it is the person. */
export const deleteMyAccount = (password: string) =>
  apiRequest<{ message: string }>('/users/me', {
    method: 'DELETE',
    body: { password },
    checksCredentials: true,
  });
