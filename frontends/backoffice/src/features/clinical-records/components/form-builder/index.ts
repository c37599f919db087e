/**
 * The dynamic form builder: renders a server-provided view configuration
 * (docs/product/clinical-records.md#view-configuration) and computes
 * what the records service computes (prices, durations, shown fields) with @crm/view-config.
 * Pure logic in the .ts modules (unit-tested), React in the .tsx ones.
 */
export { DynamicForm } from './DynamicForm';
export type { DynamicFormProps } from './DynamicForm';
export { defaultValues, valuesFromRecord, storedToInput, type FormValues } from './form-values';
export {
  buildMetadata,
  createRecordPayload,
  updateRecordPayload,
  type CreateRecordPayload,
  type UpdateRecordPayload,
  type MetadataPayload,
  type RecordTarget,
} from './payload';
export { formTotals, computedDisplay, currencyOf } from './totals';
export { visibleFieldNames } from './visibility';
export { showSaveFailure } from './save-dialogs';
export { isAlreadyRecorded } from './save-errors';
export { centreDateTime, formatCentreDate, formatCentreDateTime, CENTRE_TIME_ZONE } from './centre-time';
