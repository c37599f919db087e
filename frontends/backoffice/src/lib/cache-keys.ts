/** SWR keys read by one feature and refreshed by another (features never import each other). */
export const APPOINTMENTS_KEY = 'backoffice:appointments';
export const BOOKED_DATES_PATH = '/dates/booked';
/** A patient's appointment history; a cancellation elsewhere must refresh it. */
export const historyKey = (patientId: string) => ['backoffice:history', patientId] as const;
