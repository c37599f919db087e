import { useState } from 'react';
import { ApiError } from '../api/client';
import { toFormErrors, type FormErrors } from '../api/form-errors';
import { showServerError } from '../dialogs/dialogs';

/**
 * The submit cycle every server-backed form shares: clear the errors, mark busy, run the call, and
 * map a refusal onto the fields (or the general box) — or show the server-trouble dialog.
 */
export function useServerForm<F extends string>(fields: readonly F[]) {
  const [errors, setErrors] = useState<FormErrors<F>>({ fields: {} });
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<void>): Promise<void> => {
    setErrors({ fields: {} });
    setBusy(true);
    try {
      await action();
    } catch (error) {
      if (error instanceof ApiError && !error.isServerFailure) setErrors(toFormErrors(error, fields));
      else void showServerError();
    } finally {
      setBusy(false);
    }
  };

  /** A field's part of the last refusal: its own message, and red while the general box speaks. */
  const fieldProps = (field: F) => ({
    name: field,
    error: errors.fields[field],
    invalid: Boolean(errors.general),
  });

  return { errors, setErrors, busy, run, fieldProps };
}
