/**
 * Which dialog a failed record save shows (docs/product/clinical-records.md#save-errors):
 * - the 100-character dialog when the server's message (or one of its listed problems) contains
 *   "0 and 100 characters";
 * - the server's own refusal for any other 4xx answer (Spanish: "Esta cita ya tiene una historia
 *   clínica…" for a second record, "El campo «Peso (kg)» debe ser un número"…): never the
 *   server-trouble dialog for something the server refused on purpose;
 * - the server-trouble dialog ("Internal server error") for a 5xx, a network failure or anything else.
 */
export type SaveFailureDialog = 'textLimit' | 'refused' | 'serverTrouble';

export const TEXT_LIMIT_FRAGMENT = '0 and 100 characters';

/** Title of the dialog of a refused save. */
export const REFUSED_TITLE = 'No se pudo guardar la historia clínica';

/** 4xx answers whose message is not for users (English or technical): what the dialog says instead. */
const REFUSAL_BY_STATUS: Readonly<Record<number, string>> = {
  401: 'Su sesión ha terminado. Inicie sesión de nuevo para guardar la historia clínica.',
  403: 'Su cuenta no tiene permiso para guardar historias clínicas.',
  413: 'El formulario es demasiado grande para enviarlo.',
  429: 'Se han enviado demasiadas peticiones seguidas. Espere un momento y vuelva a intentarlo.',
};
const REFUSED_FALLBACK = 'El servidor no aceptó los datos de la historia clínica.';

function messagesOf(error: unknown): string[] {
  if (typeof error !== 'object' || error === null) return [];
  const { message, errors } = error as { message?: unknown; errors?: unknown };
  const listed = Array.isArray(errors)
    ? errors.map((item) =>
        typeof item === 'object' && item !== null ? (item as { message?: unknown }).message : undefined,
      )
    : [];
  return [message, ...listed].filter((text): text is string => typeof text === 'string');
}

/** The HTTP status of a failed call (an `ApiError` of @crm/web-kit), 0 when there was none. */
export function statusOf(error: unknown): number {
  const status = typeof error === 'object' && error !== null ? (error as { status?: unknown }).status : 0;
  return typeof status === 'number' ? status : 0;
}

const isRefusal = (error: unknown) => {
  const status = statusOf(error);
  return status >= 400 && status < 500;
};

export function saveFailureDialog(error: unknown): SaveFailureDialog {
  if (messagesOf(error).some((text) => text.includes(TEXT_LIMIT_FRAGMENT))) return 'textLimit';
  return isRefusal(error) ? 'refused' : 'serverTrouble';
}

/** The text of the dialog of a refused save: the server's message, or one per status when it has none for users. */
export function refusalText(error: unknown): string {
  const byStatus = REFUSAL_BY_STATUS[statusOf(error)];
  if (byStatus) return byStatus;
  const [message] = messagesOf(error);
  return message?.trim() ? message : REFUSED_FALLBACK;
}

/** A second record for the same appointment (409 on `dateId`): the appointment has its record now. */
export function isAlreadyRecorded(error: unknown): boolean {
  if (statusOf(error) !== 409 || typeof error !== 'object' || error === null) return false;
  const { errors } = error as { errors?: unknown };
  return (
    Array.isArray(errors) &&
    errors.some(
      (item) => typeof item === 'object' && item !== null && (item as { field?: unknown }).field === 'dateId',
    )
  );
}
