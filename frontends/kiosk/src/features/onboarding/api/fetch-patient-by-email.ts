import { api, ApiError } from '@crm/web-kit';
import type { KioskPatient } from '../types';

/**
 * `GET /users/fetch?email`: the patient with this e-mail, or null when there is none (the
 * server answers 404). Any other failure is thrown.
 */
export async function fetchPatientByEmail(email: string): Promise<KioskPatient | null> {
  try {
    const answer = await api.get<{ data?: KioskPatient }>('/users/fetch', { query: { email } });
    return answer?.data ?? null;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
