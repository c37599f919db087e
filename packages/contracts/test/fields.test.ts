import { z } from 'zod';
import { emailField, pageQuery, tooManyAttemptsMessage } from '../src/api/fields';
import { signUpBody } from '../src/api/auth';

const issuesOf = (schema: z.ZodType, value: unknown) =>
  schema
    .safeParse(value)
    .error?.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message }));

describe('person fields speak Spanish and name their field by path', () => {
  it('refuses a malformed e-mail with a Spanish message on the email field (no "Email:" prefix)', () => {
    const issues = issuesOf(signUpBody, {
      name: 'Ana Díaz',
      phone: '699111222',
      email: 'ana-arroba-correo',
      password: 'Segura1234!',
    });
    expect(issues).toEqual([{ path: 'email', message: 'El formato del correo electrónico no es válido' }]);
  });

  it('asks for a missing or blank e-mail', () => {
    expect(issuesOf(emailField, undefined)).toEqual([
      { path: '', message: 'El correo electrónico es obligatorio' },
    ]);
    expect(issuesOf(emailField, '  ')).toEqual([
      { path: '', message: 'El correo electrónico es obligatorio' },
    ]);
  });

  it('puts every sign-up problem under its own field, in Spanish', () => {
    const issues = issuesOf(signUpBody, {}) ?? [];
    expect(issues.map((i) => i.path).sort()).toEqual(['email', 'name', 'password', 'phone']);
    for (const { message } of issues) expect(message).not.toMatch(/^(Email|Invalid|Expected|Required)/);
  });

  it('answers bad paging in Spanish', () => {
    const messages = (issuesOf(pageQuery, { page: 'x', limit: '0', search: 'a'.repeat(101) }) ?? []).map(
      (i) => i.message,
    );
    expect(messages).toEqual([
      'El número de página no es válido',
      'El tamaño de página no es válido',
      'La búsqueda no puede superar los 100 caracteres',
    ]);
  });
});

describe('tooManyAttemptsMessage', () => {
  it('gives the wait in whole minutes, rounded up', () => {
    expect(tooManyAttemptsMessage(900)).toBe('Demasiados intentos. Inténtelo de nuevo en 15 minutos.');
    expect(tooManyAttemptsMessage(899)).toBe('Demasiados intentos. Inténtelo de nuevo en 15 minutos.');
    expect(tooManyAttemptsMessage(61)).toBe('Demasiados intentos. Inténtelo de nuevo en 2 minutos.');
    expect(tooManyAttemptsMessage(60)).toBe('Demasiados intentos. Inténtelo de nuevo en 1 minuto.');
    expect(tooManyAttemptsMessage(5)).toBe('Demasiados intentos. Inténtelo de nuevo en 1 minuto.');
    expect(tooManyAttemptsMessage(Number.NaN)).toBe('Demasiados intentos. Inténtelo de nuevo en 1 minuto.');
  });
});
