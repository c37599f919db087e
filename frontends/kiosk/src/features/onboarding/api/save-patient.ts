import type { OnboardingAnswer } from '@crm/contracts';
import { api } from '@crm/web-kit';
import type { SaveOperation } from '../types';

export interface SavePatientInput {
  email: string;
  name: string;
  /** Digits only (docs/product/kiosk.md#details-step: spaces removed before saving). */
  phone: string;
  operation: SaveOperation;
  /** An update's proof: the account's e-mailed one-time code. */
  code?: string;
}

/**
 * `POST /users/onboarding`: creates the patient (the answer carries a one-time code of the new
 * account, the kiosk's proof for what follows) or completes a known one with its code (the server
 * fills only what the account lacks).
 */
export async function savePatient(input: SavePatientInput): Promise<OnboardingAnswer | undefined> {
  const body = {
    email: input.email,
    operation: input.operation,
    // An empty value is "not asked for": the server keeps what it has.
    ...(input.name ? { name: input.name } : {}),
    ...(input.phone ? { phone: input.phone } : {}),
    ...(input.code ? { code: input.code } : {}),
  };
  return api.post<OnboardingAnswer | undefined>('/users/onboarding', body);
}
