import type { UserView } from '@crm/contracts';

/**
 * A patient as the kiosk sees it, identified by `id` or `pacientId`
 * (docs/product/kiosk.md#patient-identifiers).
 */
export type KioskPatient = Partial<Pick<UserView, '_id' | 'id' | 'name' | 'email' | 'phone'>> & {
  pacientId?: string;
};

/** Whether the details step creates a new patient or completes a known one. */
export type SaveOperation = 'create' | 'update';

/** The patient's id as the answers carry it: `id`, else `pacientId`, else Mongo's `_id`. */
export function patientIdOf(patient: KioskPatient | null | undefined): string | undefined {
  return patient?.id || patient?.pacientId || patient?._id || undefined;
}
