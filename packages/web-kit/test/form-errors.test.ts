import { ApiError } from '../src/api/client';
import { toFormErrors } from '../src/api/form-errors';

const fields = ['name', 'email', 'password'] as const;

describe('server errors on a form', () => {
  it('puts an error with a known field under that field', () => {
    const error = new ApiError(401, 'Correo electrónico o contraseña incorrectos', [
      { field: 'password', message: 'Correo electrónico o contraseña incorrectos' },
    ]);
    expect(toFormErrors(error, fields)).toEqual({
      fields: { password: 'Correo electrónico o contraseña incorrectos' },
    });
  });

  it('places a Spanish e-mail message by its field, without any "Email" in the text', () => {
    const error = new ApiError(400, 'El formato del correo electrónico no es válido', [
      { field: 'email', message: 'El formato del correo electrónico no es válido' },
    ]);
    expect(toFormErrors(error, fields)).toEqual({
      fields: { email: 'El formato del correo electrónico no es válido' },
    });
  });

  it('still gives a message containing "Email" without a field to the email field (older servers)', () => {
    const error = new ApiError(409, 'Email already registered', [
      { message: 'Email: ya existe una cuenta con este correo electrónico' },
    ]);
    expect(toFormErrors(error, fields).fields.email).toBe(
      'Email: ya existe una cuenta con este correo electrónico',
    );
  });

  it('trusts the field over the "Email" rule', () => {
    const error = new ApiError(400, 'x', [{ field: 'password', message: 'Email y contraseña no coinciden' }]);
    expect(toFormErrors(error, fields)).toEqual({ fields: { password: 'Email y contraseña no coinciden' } });
  });

  it('uses the "Email" rule only on forms that have an email field', () => {
    const error = new ApiError(400, 'x', [{ message: 'Email: algo' }]);
    expect(toFormErrors(error, ['password'] as const)).toEqual({ fields: {}, general: 'Email: algo' });
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

  it('uses the message when the server sent no list (the gateway 429)', () => {
    const message = 'Demasiados intentos. Inténtelo de nuevo en 15 minutos.';
    expect(toFormErrors(new ApiError(429, message), fields).general).toBe(message);
  });
});
