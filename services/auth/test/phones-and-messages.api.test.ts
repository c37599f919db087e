/**
 * Phones and messages (docs/product/README.md#phone-numbers) through the real gateway: every way of typing a
 * Spanish phone stores the same digits, a foreign number keeps its code, a bad one is refused on the `phone`
 * field in Spanish, and the messages a person reads (e-mail format, unconfirmed account, taken e-mail,
 * per-account limits) are Spanish and placed by `field`.
 */
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';

let stack: Stack;
let doctor: string;
beforeAll(async () => {
  stack = await startStack({
    components: ['auth'],
    // Per-account counters live in the shared Redis: only a limit no other call here uses is lowered.
    env: { FORGOT_PASSWORD_MAX_ATTEMPTS: '2', ATTEMPT_WINDOW_SECONDS: '900' },
  });
  doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
});
afterAll(async () => {
  await stack?.stop();
});

const person = (phone: unknown, email = uniqueEmail('phone')) => ({
  name: 'Nayra Santana Ramos',
  phone,
  email,
  password: 'Contraseña-Segura-1',
});

/** The stored phone, read back the way the back office reads it: GET /users/pacients and GET /users/:id. */
async function storedPhone(id: string, email: string): Promise<{ listed?: string; byId?: string }> {
  const listed = await stack.api.get(`/users/pacients?search=${encodeURIComponent(email)}`, doctor);
  expect(listed.status).toBe(200);
  const byId = await stack.api.get(`/users/${id}`, doctor);
  expect(byId.status).toBe(200);
  return {
    listed: listed.body.pacients.find((p: { email: string }) => p.email === email)?.phone,
    byId: byId.body.data.phone,
  };
}

describe('phones at sign-up', () => {
  it.each([
    ['+34 699 111 222', '34699111222'],
    ['0034 699 111 222', '34699111222'],
    ['699 111 222', '34699111222'],
    ['699111222', '34699111222'],
    ['+44 7700 900123', '447700900123'],
  ])('stores "%s" as %s', async (typed, stored) => {
    const body = person(typed);
    const signUp = await stack.api.post('/auth/signUp', body);
    expect(signUp.status).toBe(201);
    expect(await storedPhone(signUp.body.id, body.email)).toEqual({ listed: stored, byId: stored });
  });

  it.each(['12345', '69911122', '1234567890123456', '+34 699 111 2223'])(
    'refuses "%s" with 400 on the phone field, in Spanish',
    async (typed) => {
      const response = await stack.api.post('/auth/signUp', person(typed));
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([{ field: 'phone', message: 'El teléfono no es válido' }]);
      expect(response.body.message).toBe('El teléfono no es válido');
    },
  );

  it('stores the staff form\'s "+34 699 111 222" the same way, and finds it by the number as shown', async () => {
    const body = person('+34 699 111 222');
    const created = await stack.api.post('/auth/doctor/patient/create', body, doctor);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ phone: '34699111222', message: 'Paciente registrado' });
    const found = await stack.api.get(
      `/users/pacients?search=${encodeURIComponent('+34 699 111 222')}&limit=100`,
      doctor,
    );
    expect(found.body.pacients.map((p: { id: string }) => p.id)).toContain(created.body.id);
  });

  it('stores the kiosk\'s "0034 699 111 222" the same way', async () => {
    const kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    const created = await stack.api.post(
      '/users/onboarding',
      {
        email: uniqueEmail('kiosk-phone'),
        name: 'Pedro Gil',
        phone: '0034 699 111 222',
        operation: 'create',
      },
      kiosk,
    );
    expect(created.status).toBe(201);
    expect(created.body.data.phone).toBe('34699111222');
  });
});

describe('messages a person reads', () => {
  it('answers a malformed e-mail in Spanish on the email field, without an "Email:" prefix', async () => {
    const response = await stack.api.post('/auth/signUp', person('699111222', 'ana-arroba-correo'));
    expect(response.status).toBe(400);
    expect(response.body.errors).toEqual([
      { field: 'email', message: 'El formato del correo electrónico no es válido' },
    ]);
  });

  it('lets an unconfirmed patient sign in, and answers a taken e-mail in Spanish, on the email field', async () => {
    const body = person('699111222');
    expect((await stack.api.post('/auth/signUp', body)).status).toBe(201);

    const unconfirmed = await stack.api.post('/auth/signIn', { email: body.email, password: body.password });
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.body).toMatchObject({ rol: 'PACIENT', confirmed: false });

    const taken = await stack.api.post('/auth/signUp', body);
    expect(taken.status).toBe(409);
    expect(taken.body).toEqual({
      message: 'Ya existe una cuenta con este correo electrónico',
      errors: [{ field: 'email', message: 'Ya existe una cuenta con este correo electrónico' }],
    });
  });

  it('answers too many attempts on one account with the minutes to wait', async () => {
    const email = uniqueEmail('limited');
    const forgot = () => stack.api.post('/auth/forgotPassword', { name: 'Nayra Santana', email });
    for (let i = 0; i < 2; i++) expect((await forgot()).status).toBe(200);
    const blocked = await forgot();
    expect(blocked.status).toBe(429);
    const expected = 'Demasiados intentos. Inténtelo de nuevo en 15 minutos.';
    expect(blocked.body).toEqual({ message: expected, errors: [{ message: expected }] });
  });

  it('answers a bad or used link and an unknown patient in Spanish', async () => {
    const link = await stack.api.get(`/auth/confirmAccount/${'x'.repeat(40)}`);
    expect(link.status).toBe(400);
    expect(link.body).toEqual({
      message: 'El enlace no es válido o ha caducado',
      errors: [{ message: 'El enlace no es válido o ha caducado' }],
    });
    const missing = await stack.api.get(`/users/${'a'.repeat(24)}`, doctor);
    expect(missing).toMatchObject({ status: 404, body: { message: 'Paciente no encontrado' } });
  });
});
