import type { OnboardingProof } from '@crm/contracts';
import { isOneTimeCode } from '@crm/contracts/kiosk-codes';

/** Which of the patient's details the "Ya casi" step asks for. */
export interface AskedFields {
  name: boolean;
  phone: boolean;
}

/** What follows a code that matched (docs/product/kiosk.md#flow). */
export type ProofPlan = { next: 'details'; asks: AskedFields } | { next: 'arrival' };

/**
 * With the e-mailed code, the details the account lacks are asked ("Ya casi", only those); the
 * server fills nothing else. With a booking code, which only checks in and books, the arrival
 * follows at once (missing details are the staff's to complete).
 */
export function planAfterProof(proof: Pick<OnboardingProof, 'missing'>, code: string): ProofPlan {
  if (!isOneTimeCode(code)) return { next: 'arrival' };
  const asks = { name: proof.missing.includes('name'), phone: proof.missing.includes('phone') };
  return asks.name || asks.phone ? { next: 'details', asks } : { next: 'arrival' };
}

/** A new patient ("Es mi primera visita"): name and phone. */
export const NEW_PATIENT_ASKS: AskedFields = { name: true, phone: true };
