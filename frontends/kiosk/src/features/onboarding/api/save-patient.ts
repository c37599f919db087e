import { api } from '@crm/web-kit';
import type { KioskPatient, SaveOperation } from '../types';

export interface SavePatientInput {
  email: string;
  name: string;
  /** Digits only (spaces removed before saving, docs/product/README.md#phone-numbers). */
  phone: string;
  operation: SaveOperation;
}

/** `POST /users/onboarding`: creates the patient or completes a known one; answers `{data}`. */
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
