import { MESSAGES, showError, showServerError } from '@crm/web-kit';
import { REFUSED_TITLE, refusalText, saveFailureDialog } from './save-errors';

/**
 * A failed record save (docs/product/clinical-records.md#save-errors): "Los textos deben tener entre 0 y 100
 * caracteres" when the server says "0 and 100 characters"; the server's Spanish reason for any other refusal
 * (4xx, e.g. "Esta cita ya tiene una historia clínica…"); the "Internal server error" dialog only when the
 * server or the network failed. The form keeps what was typed in every case.
 */
export function showSaveFailure(error: unknown): Promise<void> {
  switch (saveFailureDialog(error)) {
    case 'textLimit':
      return showError(MESSAGES.recordTextLimit.title, MESSAGES.recordTextLimit.text);
    case 'refused':
      return showError(REFUSED_TITLE, refusalText(error));
    case 'serverTrouble':
      return showServerError();
  }
}
