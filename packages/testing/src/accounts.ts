import type { Role } from '@crm/contracts';
import type { ApiClient } from './http';

/** An account signed in: who it is and its session token. */
export interface SignedIn {
  id: string;
  rol: Role;
  token: string;
}

/** Signs an account in through the API (`POST /auth/signIn`): its id, role and session token. */
export async function signInAs(
  api: ApiClient,
  { email, password }: { email: string; password: string },
): Promise<SignedIn> {
  const response = await api.post('/auth/signIn', { email, password });
  if (response.status !== 200)
    throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(response.body)}`);
  return { id: response.body.id, rol: response.body.rol, token: response.body.sessiontoken };
}
