import type { UserView } from '@crm/contracts';

/** A patient as the kiosk sees it (SPEC §3: "pacient", identified by `id` or `pacientId`). */
export type KioskPatient = Partial<Pick<UserView, '_id' | 'id' | 'name' | 'email' | 'phone'>> & {
  pacientId?: string;
};

/** Whether the details step creates a new patient or completes a known one (SPEC §3 onboarding payload). */
export type SaveOperation = 'create' | 'update';

/** The patient's id as the answers carry it: `id`, else `pacientId` (SPEC §3), else Mongo's `_id`. */
export function patientIdOf(patient: KioskPatient | null | undefined): string | undefined {
  return patient?.id || patient?.pacientId || patient?._id || undefined;
}
