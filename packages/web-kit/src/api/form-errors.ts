import { ApiError, type ApiFieldError } from './client';

/** Errors of a form: one message per field, plus a general one shown above the fields. */
export interface FormErrors<F extends string = string> {
  fields: Partial<Record<F, string>>;
  general?: string;
}

export const EMPTY_FORM_ERRORS: FormErrors = { fields: {} };

/**
 * Spreads the server's errors over a form (SPEC §5): an error with a field the form has goes under
 * that field, any message containing "Email" goes to the email field, the rest to the general area.
 * A failure of the server itself (5xx, network) yields no form errors: the caller shows the
 * server-trouble dialog instead.
 */
export function toFormErrors<F extends string>(error: unknown, formFields: readonly F[]): FormErrors<F> {
  const result: FormErrors<F> = { fields: {} };
  if (!(error instanceof ApiError))
    return { fields: {}, general: error instanceof Error ? error.message : String(error) };
  const list: ApiFieldError[] = error.errors.length > 0 ? error.errors : [{ message: error.message }];
  const general: string[] = [];
  for (const item of list) {
    let field = item.field?.split('.')[0] as F | undefined;
    if (
      (!field || !formFields.includes(field)) &&
      /Email/.test(item.message) &&
      formFields.includes('email' as F)
    ) {
      field = 'email' as F;
    }
    if (field && formFields.includes(field)) {
      if (!result.fields[field]) result.fields[field] = item.message;
    } else {
      general.push(item.message);
    }
  }
  if (general.length > 0) result.general = general.join(' ');
  return result;
}

export const hasFormErrors = (errors: FormErrors): boolean =>
  Boolean(errors.general) || Object.values(errors.fields).some(Boolean);
