import { z } from 'zod';
import { normalizePhone } from '../phone';

/** Field rules shared by every form that creates or edits a person. Messages are shown to users. */
export const emailField = z
  .string({ error: 'El correo electrónico es obligatorio' })
  .trim()
  .toLowerCase()
  .max(254, 'El correo electrónico es demasiado largo')
  .pipe(z.email({ error: 'Email: el formato del correo electrónico no es válido' }));

export const nameField = z
  .string({ error: 'El nombre es obligatorio' })
  .trim()
  .min(2, 'El nombre es obligatorio')
  .max(100, 'El nombre no puede superar los 100 caracteres');

export const phoneField = z.string({ error: 'El teléfono es obligatorio' }).transform((value, ctx) => {
  const phone = normalizePhone(value);
  if (!phone) {
    ctx.addIssue({ code: 'custom', message: 'El teléfono no es válido' });
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
export const objectIdField = z.string().regex(/^[a-f0-9]{24}$/i, 'Identificador no válido');

export const pageQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .default(10)
    .transform((limit) => Math.min(limit, 100)),
  search: z.string().trim().max(100).default(''),
});
export type PageQuery = z.infer<typeof pageQuery>;
