import { api } from '@crm/web-kit';
import type { KioskPatient, SaveOperation } from '../types';

export interface SavePatientInput {
  email: string;
  name: string;
  /** Digits only (SPEC §5: spaces removed before saving). */
  phone: string;
  operation: SaveOperation;
}

/** `POST /users/onboarding` (SPEC §7): creates the patient or completes a known one; answers `{data}`. */
export async function savePatient(input: SavePatientInput): Promise<KioskPatient | undefined> {
  const body = {
    email: input.email,
    operation: input.operation,
    // An empty value is "not asked for": the server keeps what it has.
    ...(input.name ? { name: input.name } : {}),
    ...(input.phone ? { phone: input.phone } : {}),
  };
  const answer = await api.post<{ data?: KioskPatient } | undefined>('/users/onboarding', body);
  return answer?.data;
}
