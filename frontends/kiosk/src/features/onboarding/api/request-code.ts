import type { OnboardingCodeSent } from '@crm/contracts';
import { api } from '@crm/web-kit';

/**
 * `POST /users/onboarding/code {email}`: e-mails a one-time code to the account of that address.
 * The same 202 whatever the address (docs/product/kiosk.md#proof); 429 after a few in a row.
 */
export function requestCode(email: string): Promise<OnboardingCodeSent> {
  return api.post<OnboardingCodeSent>('/users/onboarding/code', { email });
}
