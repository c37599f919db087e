import type { ViewField } from '@crm/contracts';
import { MEDICAL_CERTIFICATE_FIELDS, viewFieldsSchema } from '@crm/view-config';

/**
 * Test fixture: the configuration the config service seeds for `doctor/appointments/:id` (version 1,
 * defined once in @crm/view-config), checked with the same schema, so the form is tested against the
 * real clinical-record form.
 */
export const SEEDED_FIELDS: ViewField[] = viewFieldsSchema.parse(MEDICAL_CERTIFICATE_FIELDS);

/** The appointment the record belongs to: durations count from here (a Wednesday, 10:15 UTC). */
export const APPOINTMENT_DATE = new Date('2026-11-25T10:15:00.000Z');

/**
 * A seeded form filled for a 10-year driving renewal (docs/product/centre-profile.md#prices): the inputs as
 * typed.
 */
export const DRIVING_RENEWAL: Record<string, string> = {
  certificateType: 'Permiso de conducir',
  licenceGroup: 'GRUPO_1',
  weight: '72,5',
  height: '178',
  bloodPressure: '120/80',
  visualAcuity: '1.0 ambos ojos',
  result: 'Apto',
  validity: '10 años',
  dgtFee: '24.58',
};
