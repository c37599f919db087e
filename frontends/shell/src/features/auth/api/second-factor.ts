import type { MfaConfirmResponse, MfaSetupResponse, SignInResponse } from '@crm/contracts';
import { api } from '@crm/web-kit';

/** POST /auth/signIn/mfa — the code (or a recovery code) that completes a sign-in. */
export const signInWithCode = (mfaToken: string, code: string) =>
  api.post<SignInResponse>('/auth/signIn/mfa', { mfaToken, code });

/** POST /auth/signIn/mfa/setup — the enrolment a sign-in asked for. */
export const enrolSetup = (mfaToken: string) =>
  api.post<MfaSetupResponse>('/auth/signIn/mfa/setup', { mfaToken });

/** POST /auth/signIn/mfa/confirm — its first code; answers the recovery codes and the session. */
export const enrolConfirm = (mfaToken: string, code: string) =>
  api.post<MfaConfirmResponse>('/auth/signIn/mfa/confirm', { mfaToken, code });
