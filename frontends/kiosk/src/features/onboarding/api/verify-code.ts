import type { OnboardingProof } from '@crm/contracts';
import { api } from '@crm/web-kit';

/**
 * `POST /users/onboarding/verify {email, code}`: the booking code or the e-mailed code proves the
 * account is the person's → `{pacientId, missing}`; anything else is a 403 (an unknown address too).
 */
export function verifyCode(email: string, code: string): Promise<OnboardingProof> {
  return api.post<OnboardingProof>('/users/onboarding/verify', { email, code });
}
