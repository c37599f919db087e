import { MESSAGES, showError, showServerError } from '@crm/web-kit';
import { saveFailureDialog } from './save-errors';

/**
 * A failed record save (SPEC §8): "Los textos deben tener entre 0 y 100 caracteres" when the server
 * says "0 and 100 characters", else the "Internal server error" dialog.
 */
export function showSaveFailure(error: unknown): Promise<void> {
  return saveFailureDialog(error) === 'textLimit'
    ? showError(MESSAGES.recordTextLimit.title, MESSAGES.recordTextLimit.text)
    : showServerError();
}
