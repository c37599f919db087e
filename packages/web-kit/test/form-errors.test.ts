import { ApiError } from '../src/api/client';
import { toFormErrors } from '../src/api/form-errors';

const fields = ['name', 'email', 'password'] as const;

describe('server errors on a form (SPEC §5, §8)', () => {
  it('puts an error with a known field under that field', () => {
    const error = new ApiError(401, 'Correo electrónico o contraseña incorrectos', [
      { field: 'password', message: 'Correo electrónico o contraseña incorrectos' },
    ]);
    expect(toFormErrors(error, fields)).toEqual({
      fields: { password: 'Correo electrónico o contraseña incorrectos' },
    });
  });

  it('gives any message containing "Email" to the email field', () => {
    const error = new ApiError(409, 'Email already registered', [
      { message: 'Email: ya existe una cuenta con este correo electrónico' },
    ]);
    expect(toFormErrors(error, fields).fields.email).toBe(
      'Email: ya existe una cuenta con este correo electrónico',
    );
  });

  it('puts errors without a known field in the general area', () => {
    const error = new ApiError(400, 'Invalid or expired token', [
      { message: 'El enlace no es válido o ha caducado' },
    ]);
    expect(toFormErrors(error, fields)).toEqual({
      fields: {},
      general: 'El enlace no es válido o ha caducado',
    });
  });

  it('uses the message when the server sent no list', () => {
    expect(
      toFormErrors(new ApiError(429, 'Too many requests, please try again later.'), fields).general,
    ).toBe('Too many requests, please try again later.');
  });
});
