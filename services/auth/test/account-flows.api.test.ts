import { Redis } from 'ioredis';
import { sessionKeys } from '@crm/contracts';
import { linkToken } from '@crm/testing';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  await stack?.stop();
});

const newPatient = (email = uniqueEmail('patient')) => ({
  name: 'Lucía Hernández',
  phone: '612 345 678',
  email,
  password: 'contraseña-segura',
});

describe('sign-up and account confirmation', () => {
  it('registers a patient, answers with a session, and sends one confirmation e-mail whose link confirms', async () => {
    const person = newPatient();
    const signUp = await stack.api.post('/auth/signUp', { ...person, rol: 'ADMIN', confirmed: true });
    expect(signUp.status).toBe(201);
    expect(signUp.body).toMatchObject({
      id: expect.any(String),
      sessiontoken: expect.any(String),
      rol: 'PACIENT',
    });

    const me = await stack.api.get('/auth/currentUser', signUp.body.sessiontoken);
    expect(me.body).toMatchObject({
      id: signUp.body.id,
      rol: 'PACIENT',
      profile: { phone: '34612345678', confirmed: false },
    });

    const [mail] = await stack.mail.waitForMessagesTo(person.email, 1);
    expect(mail.Subject).toBe('Confirme su cuenta');
    expect(mail.HTML).toContain('Lucía Hernández');
    const token = linkToken(mail.Text, 'confirm-account');

    // Unconfirmed patients sign in too; the answer says they still have to confirm.
    const unconfirmed = await stack.api.post('/auth/signIn', {
      email: person.email,
      password: person.password,
    });
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.body).toMatchObject({ id: signUp.body.id, confirmed: false });

    expect((await stack.api.get(`/auth/confirmAccount/${token}`)).body).toEqual({
      message: 'Account confirmed',
    });
    expect((await stack.api.get(`/auth/confirmAccount/${token}`)).body).toEqual({
      message: 'Account already activated',
    });

    const signIn = await stack.api.post('/auth/signIn', {
      email: person.email.toUpperCase(),
      password: person.password,
    });
    expect(signIn.status).toBe(200);
    expect(signIn.body).toEqual({
      id: signUp.body.id,
      sessiontoken: expect.any(String),
      rol: 'PACIENT',
      confirmed: true,
    });

    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await stack.mail.messagesTo(person.email)).toHaveLength(1);
  });

  it('refuses an unknown confirmation token', async () => {
    const response = await stack.api.get(`/auth/confirmAccount/${'x'.repeat(43)}`);
    expect(response.status).toBe(400);
  });

  it('gives exactly one account to 50 parallel sign-ups with the same e-mail', async () => {
    const person = newPatient();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => stack.api.post('/auth/signUp', person)),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
    expect(await stack.auth.models.User.countDocuments({ email: person.email })).toBe(1);
    expect(results.find((r) => r.status === 409)?.body.errors[0]).toMatchObject({ field: 'email' });
  });
});

describe('validation', () => {
  it.each([
    [{}, ['name', 'phone', 'email', 'password']],
    [{ ...newPatient(), email: 'not-an-email' }, ['email']],
    [{ ...newPatient(), phone: '12' }, ['phone']],
    [{ ...newPatient(), password: 'short' }, ['password']],
    [{ ...newPatient(), name: 42 }, ['name']],
  ])('answers 400 with field errors for %j', async (body, fields) => {
    const response = await stack.api.post('/auth/signUp', body);
    expect(response.status).toBe(400);
    expect(response.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
  });

  it('refuses a common or breached password on sign-up, reset and staff registration', async () => {
    const message = 'Esta contraseña es muy común o aparece en filtraciones de datos; elija otra';
    const signUp = await stack.api.post('/auth/signUp', { ...newPatient(), password: 'Password123' });
    expect(signUp.status).toBe(400);
    expect(signUp.body.errors).toEqual([{ field: 'password', message }]);
    const reset = await stack.api.post(`/auth/resetPassword/${'x'.repeat(32)}`, { password: 'qwerty123' });
    expect(reset.status).toBe(400);
    expect(reset.body.errors).toEqual([{ field: 'password', message }]);
    const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const staff = await stack.api.post(
      '/auth/doctor/patient/create',
      { ...newPatient(), password: 'iloveyou1' },
      doctor,
    );
    expect(staff.status).toBe(400);
    expect(staff.body.errors).toEqual([{ field: 'password', message }]);
  });

  it('answers a duplicate e-mail (any case) with 409 on the email field', async () => {
    const person = newPatient();
    expect((await stack.api.post('/auth/signUp', person)).status).toBe(201);
    const again = await stack.api.post('/auth/signUp', { ...person, email: person.email.toUpperCase() });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([
      { field: 'email', message: 'Ya existe una cuenta con este correo electrónico' },
    ]);
  });

  it.each([
    ['/auth/signIn', { email: { $ne: null }, password: { $ne: null } }],
    ['/auth/signIn', { email: 'a@b.es', password: { $gt: '' } }],
    ['/auth/forgotPassword', { name: 'x', email: { $regex: '.*' } }],
    ['/auth/signUp', { ...newPatient(), $where: 'sleep(100)' }],
  ])('refuses operator injection on %s', async (path, body) => {
    const response = await stack.api.post(path, body);
    expect(response.status).toBe(400);
  });

  it('refuses operator injection in the query', async () => {
    const token = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const response = await stack.api.get('/users/fetch?email[$ne]=x', token);
    expect(response.status).toBe(400);
  });
});

describe('sign-in and sign-out', () => {
  it('answers a wrong password and an unknown e-mail alike, under the password field', async () => {
    const wrong = await stack.api.post('/auth/signIn', {
      email: BOOTSTRAP.admin.email,
      password: 'nope-nope',
    });
    const unknown = await stack.api.post('/auth/signIn', {
      email: uniqueEmail('ghost'),
      password: 'nope-nope',
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.errors[0].field).toBe('password');
  });

  it('revokes the token it was called with', async () => {
    const token = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const other = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    expect((await stack.api.post('/auth/signOut', {}, token)).status).toBe(200);
    expect((await stack.api.get('/auth/currentUser', token)).status).toBe(401);
    expect((await stack.api.get('/users', token)).status).toBe(401);
    expect((await stack.api.get('/auth/currentUser', other)).status).toBe(200);
  });

  it('tells the gateways: the ended session’s key in Redis, then an announcement naming it', async () => {
    const token = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const { jti } = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { jti: string };
    const listener = new Redis(stack.env.REDIS_URL!);
    const reader = new Redis(stack.env.REDIS_URL!);
    try {
      await listener.subscribe(sessionKeys.endedChannel);
      const announced = new Promise<{ message: unknown; keyThen: string | null }>((resolve) => {
        listener.on('message', (_channel, message: string) => {
          const parsed = JSON.parse(message) as { tokenId?: string };
          if (parsed.tokenId !== jti) return;
          void reader
            .get(sessionKeys.revokedToken(jti))
            .then((keyThen) => resolve({ message: parsed, keyThen }));
        });
      });
      expect((await stack.api.post('/auth/signOut', {}, token)).status).toBe(200);
      expect(await announced).toEqual({ message: { tokenId: jti }, keyThen: '1' });
    } finally {
      listener.disconnect();
      reader.disconnect();
    }
  });

  it('creates the bootstrap accounts with their roles', async () => {
    const roles = await Promise.all(
      [BOOTSTRAP.admin, BOOTSTRAP.doctor, BOOTSTRAP.kiosk].map(
        async ({ email, password }) => (await stack.api.post('/auth/signIn', { email, password })).body.rol,
      ),
    );
    expect(roles).toEqual(['ADMIN', 'DOCTOR', 'SERVICE_ACCOUNT']);
  });
});

describe('forgotten password', () => {
  it('answers the same for unknown e-mails and sends nothing', async () => {
    const email = uniqueEmail('ghost');
    const response = await stack.api.post('/auth/forgotPassword', { name: 'Nadie', email });
    expect(response).toMatchObject({ status: 200, body: { message: 'Email sent' } });
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await stack.mail.messagesTo(email)).toHaveLength(0);
  });

  it('resets the password once through the e-mailed link and ends older sessions', async () => {
    const person = newPatient();
    const signUp = await stack.api.post('/auth/signUp', person);
    const oldSession = signUp.body.sessiontoken as string;
    await stack.mail.waitForMessagesTo(person.email, 1);

    expect(
      (await stack.api.post('/auth/forgotPassword', { name: person.name, email: person.email })).body,
    ).toEqual({
      message: 'Email sent',
    });
    const mails = await stack.mail.waitForMessagesTo(person.email, 2);
    const resetMail = mails.find((m) => m.Subject === 'Restablezca su contraseña')!;
    const token = linkToken(resetMail.Text, 'reset-password');

    await new Promise((resolve) => setTimeout(resolve, 1100)); // token iat has second resolution
    // The same link used five times at once: exactly one reset happens.
    const candidates = ['nueva-contraseña', 'otra-clave-1', 'otra-clave-2', 'otra-clave-3', 'otra-clave-4'];
    const resets = await Promise.all(
      candidates.map((password) => stack.api.post(`/auth/resetPassword/${token}`, { password })),
    );
    expect(resets.map((r) => r.status).sort()).toEqual([200, 400, 400, 400, 400]);
    // The answer names the account, so that the page can sign in with the new password at once.
    expect(resets.find((r) => r.status === 200)?.body).toEqual({
      message: 'Password reset',
      email: person.email,
    });
    const newPassword = candidates[resets.findIndex((r) => r.status === 200)];
    expect(
      (await stack.api.post(`/auth/resetPassword/${token}`, { password: 'otra-contraseña' })).status,
    ).toBe(400);

    expect((await stack.api.get('/auth/currentUser', oldSession)).status).toBe(401);
    expect(
      (await stack.api.post('/auth/signIn', { email: person.email, password: person.password })).status,
    ).toBe(401);
    const signIn = await stack.api.post('/auth/signIn', {
      email: person.email,
      password: newPassword,
    });
    expect(signIn.status).toBe(200); // the reset also confirmed the address
    expect((await stack.api.get('/auth/currentUser', signIn.body.sessiontoken)).status).toBe(200);
  });
});

describe('staff and kiosk', () => {
  it('lets a doctor register a confirmed patient and find them in the lists', async () => {
    const token = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const person = { ...newPatient(), name: `Paciente ${Date.now()}` };
    const created = await stack.api.post('/auth/doctor/patient/create', { ...person, rol: 'ADMIN' }, token);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      id: expect.any(String),
      rol: 'PACIENT',
      confirmed: true,
      phone: '34612345678',
    });

    const users = await stack.api.get(`/users?search=${encodeURIComponent(person.name)}`, token);
    expect(users.body).toMatchObject({ total: 1, page: 1, totalPages: 1, limit: 10 });
    expect(users.body.users[0]).toMatchObject({ _id: created.body.id, email: person.email });
    expect(users.body.users[0]).not.toHaveProperty('passwordHash');

    const pacients = await stack.api.get(`/users/pacients?search=${encodeURIComponent(person.email)}`, token);
    expect(pacients.body).toMatchObject({ total: 1, totalPages: 1, pacients: [{ id: created.body.id }] });

    const byId = await stack.api.get(`/users/${created.body.id}`, token);
    expect(byId.body.data).toMatchObject({ id: created.body.id, name: person.name });

    const signIn = await stack.api.post('/auth/signIn', { email: person.email, password: person.password });
    expect(signIn.status).toBe(200);
  });

  it('pages users with defaults and caps the limit at 100', async () => {
    const token = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
    expect((await stack.api.get('/users?limit=100000', token)).body.limit).toBe(100);
    expect((await stack.api.get('/users', token)).body).toMatchObject({ page: 1, limit: 10 });
    expect((await stack.api.get('/users?page=0', token)).status).toBe(400);
    expect((await stack.api.get('/users?limit=abc', token)).status).toBe(400);
  });

  it('lets the kiosk create a walk-in patient, then complete it only with the e-mailed code', async () => {
    const token = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    const email = uniqueEmail('walkin');
    // The kiosk reads nobody by e-mail any more (docs/product/kiosk.md#proof).
    expect((await stack.api.get(`/users/fetch?email=${email}`, token)).status).toBe(403);

    const created = await stack.api.post(
      '/users/onboarding',
      { email, name: 'Pedro Gil', operation: 'create' },
      token,
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ id: expect.any(String), name: 'Pedro Gil', email });
    expect(created.body.data).not.toHaveProperty('phone');
    expect(created.body.code).toMatch(/^\d{6}$/);

    const again = await stack.api.post(
      '/users/onboarding',
      { email, name: 'Pedro Gil', operation: 'create' },
      token,
    );
    expect(again.status).toBe(409);

    const withoutCode = await stack.api.post(
      '/users/onboarding',
      { email, phone: '+34 699 111 222', operation: 'update' },
      token,
    );
    expect(withoutCode.status).toBe(403);
    const updated = await stack.api.post(
      '/users/onboarding',
      { email, phone: '+34 699 111 222', operation: 'update', code: created.body.code },
      token,
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data).toMatchObject({
      id: created.body.data.id,
      name: 'Pedro Gil',
      phone: '34699111222',
    });

    const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const fetched = await stack.api.get(`/users/fetch?email=${email.toUpperCase()}`, doctor);
    expect(fetched.body.data).toMatchObject({ id: created.body.data.id, phone: '34699111222' });
  });

  it('never lets the kiosk see or change a staff account', async () => {
    const token = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    expect((await stack.api.get(`/users/fetch?email=${BOOTSTRAP.admin.email}`, doctor)).status).toBe(404);
    const update = await stack.api.post(
      '/users/onboarding',
      { email: BOOTSTRAP.admin.email, name: 'Hacked', operation: 'update', code: '123456' },
      token,
    );
    expect(update.status).toBe(403);
    const verify = await stack.api.post(
      '/users/onboarding/verify',
      { email: BOOTSTRAP.admin.email, code: '123456' },
      token,
    );
    expect(verify.status).toBe(403);
  });
});
