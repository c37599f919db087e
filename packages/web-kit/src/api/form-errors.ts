import { ApiError, type ApiFieldError } from './client';

/** Errors of a form: one message per field, plus a general one shown above the fields. */
export interface FormErrors<F extends string = string> {
  fields: Partial<Record<F, string>>;
  general?: string;
}

export const EMPTY_FORM_ERRORS: FormErrors = { fields: {} };

/** A message that mentions "Email" belongs to the email field (older servers sent no `field`). */
const LEGACY_EMAIL_MESSAGE = /Email/;

/** The form field an error belongs to: its `field` first; the older "Email" rule only without one. */
function fieldOf<F extends string>(item: ApiFieldError, formFields: readonly F[]): F | undefined {
  const field = item.field?.split('.')[0];
  if (field && (formFields as readonly string[]).includes(field)) return field as F;
  if (LEGACY_EMAIL_MESSAGE.test(item.message) && (formFields as readonly string[]).includes('email')) {
    return 'email' as F;
  }
  return undefined;
}

/**
 * Spreads the server's errors over a form (docs/product/README.md#form-errors): an error whose `field` the
 * form has goes under that field (this is how every server message is placed, e.g. `{field: 'email', message:
 * 'El formato del correo electrónico no es válido'}`); a message without a usable field that contains "Email"
 * goes to the email field; the rest to the general area.
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
    const field = fieldOf(item, formFields);
    if (field) {
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
