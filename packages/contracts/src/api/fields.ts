import { z } from 'zod';
import { normalizeKioskCode } from '../kiosk-codes';
import { normalizePhone, PHONE_INVALID_MESSAGE } from '../phone';

/**
 * Field rules shared by every form that creates or edits a person. Messages are shown to users, in
 * Spanish; the field they belong to travels as the error's `field` (the input's name), never as a
 * prefix of the message.
 */
export const emailField = z
  .string({ error: 'El correo electrónico es obligatorio' })
  .trim()
  .toLowerCase()
  .min(1, 'El correo electrónico es obligatorio')
  .max(254, 'El correo electrónico es demasiado largo')
  .pipe(z.email({ error: 'El formato del correo electrónico no es válido' }));

export const nameField = z
  .string({ error: 'El nombre es obligatorio' })
  .trim()
  .min(2, 'El nombre es obligatorio')
  .max(100, 'El nombre no puede superar los 100 caracteres');

/** Any way of writing a phone (see `normalizePhone`); parses to the stored digits, e.g. `34699111222`. */
export const phoneField = z
  .string({ error: 'El teléfono es obligatorio' })
  .max(40, PHONE_INVALID_MESSAGE)
  .transform((value, ctx) => {
    if (!value.trim()) {
      ctx.addIssue({ code: 'custom', message: 'El teléfono es obligatorio' });
      return z.NEVER;
    }
    const phone = normalizePhone(value);
    if (!phone) {
      ctx.addIssue({ code: 'custom', message: PHONE_INVALID_MESSAGE });
      return z.NEVER;
    }
    return phone;
  });

export const PASSWORD_MIN_LENGTH = 8;

export const passwordField = z
  .string({ error: 'La contraseña es obligatoria' })
  .min(PASSWORD_MIN_LENGTH, `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres`)
  .max(128, 'La contraseña no puede superar los 128 caracteres');

/** Ids are MongoDB ObjectIds rendered as 24 hex characters. */
export const objectIdField = z
  .string({ error: 'Identificador no válido' })
  .regex(/^[a-f0-9]{24}$/i, 'Identificador no válido');

const CODE_INVALID = 'El código no es válido';

/**
 * A code shown at the kiosk (a booking code or an e-mailed one-time code, see kiosk-codes.ts), as
 * typed or scanned: spaces and dashes dropped, upper case. Whether it matches is the server's
 * business (403); only a value that cannot be a code at all is a 400.
 */
export const kioskCodeField = z
  .string({ error: CODE_INVALID })
  .max(20, CODE_INVALID)
  .transform(normalizeKioskCode)
  .pipe(z.string().regex(/^[A-Z0-9]{6}$/, 'El código tiene 6 caracteres'));

const PAGE_INVALID = 'El número de página no es válido';
const LIMIT_INVALID = 'El tamaño de página no es válido';

export const pageQuery = z.object({
  page: z.coerce
    .number({ error: PAGE_INVALID })
    .int(PAGE_INVALID)
    .min(1, PAGE_INVALID)
    .max(100000, PAGE_INVALID)
    .default(1),
  limit: z.coerce
    .number({ error: LIMIT_INVALID })
    .int(LIMIT_INVALID)
    .min(1, LIMIT_INVALID)
    .default(10)
    .transform((limit) => Math.min(limit, 100)),
  search: z
    .string({ error: 'La búsqueda no es válida' })
    .trim()
    .max(100, 'La búsqueda no puede superar los 100 caracteres')
    .default(''),
});
export type PageQuery = z.infer<typeof pageQuery>;

/**
 * The answer to too many attempts (gateway and auth, HTTP 429), with the wait rounded up to whole
 * minutes: "Demasiados intentos. Inténtelo de nuevo en 15 minutos."
 */
export function tooManyAttemptsMessage(retryAfterSeconds: number): string {
  const seconds = Number.isFinite(retryAfterSeconds) ? retryAfterSeconds : 60;
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `Demasiados intentos. Inténtelo de nuevo en ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}.`;
}
