import type { MfaConfirmResponse, MfaSetupResponse } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** POST /auth/mfa/setup — a new secret for the signed-in person. */
export const setupMfa = () => api.post<MfaSetupResponse>('/auth/mfa/setup');

/** POST /auth/mfa/confirm — the first code turns the factor on; answers the recovery codes. */
export const confirmMfa = (code: string) =>
  api.post<MfaConfirmResponse>('/auth/mfa/confirm', { code }, { checksCredentials: true });
