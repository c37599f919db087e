import { patientIdOf, type KioskPatient, type SaveOperation } from './types';

/** Which of the patient's details the "Ya casi" step asks for. */
export interface AskedFields {
  name: boolean;
  phone: boolean;
}

/** What follows the e-mail lookup (docs/product/kiosk.md#flow). */
export type LookupPlan =
  | {
      next: 'details';
      operation: SaveOperation;
      asks: AskedFields;
      name: string;
      /** As stored (digits); the step formats it for display. */
      phone: string;
      patientId?: string;
    }
  | { next: 'book'; operation: 'update'; name: string; phone: string; patientId?: string };

/**
 * No patient: create, asking name and phone. A patient: update, prefilled, asking only what is
 * missing — or, when nothing is, booking straight away.
 */
export function planAfterLookup(patient: KioskPatient | null): LookupPlan {
  if (!patient) {
    return { next: 'details', operation: 'create', asks: { name: true, phone: true }, name: '', phone: '' };
  }
  const name = patient.name?.trim() ?? '';
  const phone = patient.phone?.replace(/\D/g, '') ?? '';
  const patientId = patientIdOf(patient);
  const asks = { name: !name, phone: !phone };
  if (asks.name || asks.phone) return { next: 'details', operation: 'update', asks, name, phone, patientId };
  return { next: 'book', operation: 'update', name, phone, patientId };
}
