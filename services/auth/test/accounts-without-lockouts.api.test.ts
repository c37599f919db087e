/**
 * Accounts without lock-outs (docs/product/patient-area.md#unconfirmed-accounts): unconfirmed patients sign
 * in, the confirmation e-mail can be asked for again, and patients registered by staff or at the kiosk
 * without a password are invited by e-mail to set one. Real infrastructure: MongoDB, RabbitMQ, Redis and
 * Mailpit.
 */
import { linkToken, sleep } from '@crm/testing';
import { upcomingSlots } from '../../appointments/src/domain/slot-rules';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'notifications', 'appointments'],
    env: { RESEND_CONFIRMATION_MAX_ATTEMPTS: '2' },
  });
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const newPatient = (label: string) => ({
  name: 'Lucía Hernández',
  phone: '612 345 678',
  email: uniqueEmail(label),
  password: 'contraseña-segura',
});

describe('unconfirmed patients sign in', () => {
  it('answers confirmed:false to an unconfirmed sign-in, and confirmed:true once confirmed; currentUser says so too', async () => {
    const person = newPatient('unconfirmed');
    const signUp = await stack.api.post('/auth/signUp', person);
    expect(signUp.status).toBe(201);
    expect(signUp.body).toMatchObject({ rol: 'PACIENT', confirmed: false });

    const signIn = await stack.api.post('/auth/signIn', { email: person.email, password: person.password });
    expect(signIn.status).toBe(200);
    expect(signIn.body).toEqual({
      id: signUp.body.id,
      sessiontoken: expect.any(String),
      rol: 'PACIENT',
      confirmed: false,
    });
    const me = await stack.api.get('/auth/currentUser', signIn.body.sessiontoken);
    expect(me.body).toMatchObject({ id: signUp.body.id, confirmed: false, profile: { confirmed: false } });

    const [mail] = await stack.mail.waitForMessagesTo(person.email, 1);
    const token = linkToken(mail!.Text, 'confirm-account');
    expect((await stack.api.get(`/auth/confirmAccount/${token}`)).body).toEqual({
      message: 'Account confirmed',
    });

    const again = await stack.api.post('/auth/signIn', { email: person.email, password: person.password });
    expect(again.body).toMatchObject({ id: signUp.body.id, confirmed: true });
    expect((await stack.api.get('/auth/currentUser', again.body.sessiontoken)).body).toMatchObject({
      confirmed: true,
    });
  });
});

describe('POST /auth/resendConfirmation', () => {
  it('sends exactly one new confirmation e-mail to a real unconfirmed account; the new link confirms and the old one no longer does', async () => {
    const person = newPatient('resend');
    await stack.api.post('/auth/signUp', person);
    const [first] = await stack.mail.waitForMessagesTo(person.email, 1);
    const oldToken = linkToken(first!.Text, 'confirm-account');

    const response = await stack.api.post('/auth/resendConfirmation', { email: person.email.toUpperCase() });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'Email sent' });

    const mails = await stack.mail.waitForMessagesTo(person.email, 2);
    await sleep(1500);
    expect(await stack.mail.messagesTo(person.email)).toHaveLength(2);
    expect(mails.every((m) => m.Subject === 'Confirme su cuenta')).toBe(true);
    const newToken = mails.map((m) => linkToken(m.Text, 'confirm-account')).find((t) => t !== oldToken)!;
    expect(newToken).toBeDefined();

    // The new link supersedes the old one.
    expect((await stack.api.get(`/auth/confirmAccount/${oldToken}`)).status).toBe(400);
    expect((await stack.api.get(`/auth/confirmAccount/${newToken}`)).body).toEqual({
      message: 'Account confirmed',
    });
  });

  it('answers the same 200 and sends nothing for an unknown or an already confirmed address', async () => {
    const unknown = uniqueEmail('nobody');
    const confirmedPerson = newPatient('confirmed');
    const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    // Staff-registered with a password: confirmed, and no e-mail at all.
    expect((await stack.api.post('/auth/doctor/patient/create', confirmedPerson, doctor)).status).toBe(201);

    // Invited at the kiosk (no password): the invitation is its way in, not a confirmation link.
    const kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    const invited = uniqueEmail('invited-resend');
    await stack.api.post(
      '/users/onboarding',
      { email: invited, name: 'Ana Díaz', operation: 'create' },
      kiosk,
    );
    await stack.mail.waitForMessagesTo(invited, 1);

    const answers = await Promise.all([
      stack.api.post('/auth/resendConfirmation', { email: unknown }),
      stack.api.post('/auth/resendConfirmation', { email: confirmedPerson.email }),
      stack.api.post('/auth/resendConfirmation', { email: invited }),
    ]);
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ message: 'Email sent' });
    }
    await sleep(2000);
    expect(await stack.mail.messagesTo(unknown)).toHaveLength(0);
    expect(await stack.mail.messagesTo(confirmedPerson.email)).toHaveLength(0);
    expect(await stack.mail.messagesTo(invited)).toHaveLength(1);
  });

  it('answers 429 in Spanish after too many requests for one address, and validates the e-mail', async () => {
    const email = uniqueEmail('insistent');
    const statuses = [];
    for (let i = 0; i < 2; i++)
      statuses.push((await stack.api.post('/auth/resendConfirmation', { email })).status);
    const blocked = await stack.api.post('/auth/resendConfirmation', { email });
    expect(statuses).toEqual([200, 200]);
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/^Demasiados intentos/);
    expect(blocked.body.errors).toEqual([{ message: blocked.body.message }]);

    const invalid = await stack.api.post('/auth/resendConfirmation', { email: { $ne: null } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors[0].field).toBe('email');
  });
});

/** Opens the invitation e-mail, sets the password through its link, then signs in with it. */
async function acceptInvitation(email: string, password: string) {
  const [mail] = await stack.mail.waitForMessagesTo(email, 1);
  expect(mail!.Subject).toBe('Cree su contraseña para acceder a su área de paciente');
  expect(mail!.HTML).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
  const token = linkToken(mail!.Text, 'reset-password');

  const reset = await stack.api.post(`/auth/resetPassword/${token}`, { password });
  expect(reset.status).toBe(200);
  // The answer names the account: the page signs in with it and the new password.
  expect(reset.body).toEqual({ message: 'Password reset', email });
  // Single use.
  expect((await stack.api.post(`/auth/resetPassword/${token}`, { password: 'otra-clave-99' })).status).toBe(
    400,
  );

  const signIn = await stack.api.post('/auth/signIn', { email, password });
  expect(signIn.status).toBe(200);
  expect(signIn.body).toMatchObject({ rol: 'PACIENT', confirmed: true });
  return { mail: mail!, signIn: signIn.body as { id: string; sessiontoken: string } };
}

describe('invitations of patients registered by staff or at the kiosk', () => {
  it('a doctor registers a patient without a password: the invitation link sets it, then sign-in works', async () => {
    const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const { password: _unused, ...person } = newPatient('invited-staff');
    const created = await stack.api.post('/auth/doctor/patient/create', { ...person, password: '' }, doctor);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ rol: 'PACIENT', confirmed: false, email: person.email });

    const { mail, signIn } = await acceptInvitation(person.email, 'mi-primera-clave');
    expect(mail.Text).toContain('le ha registrado como paciente');
    expect(signIn.id).toBe(created.body.id);
    await sleep(1000);
    expect(await stack.mail.messagesTo(person.email)).toHaveLength(1);
  });

  it('a staff-registered patient with a password is confirmed, gets no invitation, and the booking e-mail links to the area', async () => {
    const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const person = newPatient('staff-password');
    const created = await stack.api.post('/auth/doctor/patient/create', person, doctor);
    expect(created.body).toMatchObject({ confirmed: true });
    const signIn = await stack.api.post('/auth/signIn', { email: person.email, password: person.password });
    expect(signIn.body).toMatchObject({ confirmed: true });
    await sleep(1500);
    expect(await stack.mail.messagesTo(person.email)).toHaveLength(0);

    // Booked by the doctor (not by the patient): the worker knows this patient can sign in.
    const slot = upcomingSlots(new Date(Date.now() + 9 * 86_400_000))
      .next()
      .value!.toISOString();
    expect(
      (await stack.api.post('/dates/admin', { date: slot, pacientId: created.body.id }, doctor)).status,
    ).toBe(201);
    const [booking] = await stack.mail.waitForMessagesTo(person.email, 1, 20000);
    expect(booking!.Subject).toMatch(/^Cita confirmada/);
    expect(booking!.Text).toContain('http://crm.test/user');
    expect(booking!.Text).toContain('cancele la cita desde su área de paciente');
  });

  it('a kiosk walk-in gets the invitation; its registration e-mail does not promise the patient area', async () => {
    const kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    const email = uniqueEmail('invited-kiosk');
    const created = await stack.api.post(
      '/users/onboarding',
      { email, name: 'Pedro Gil', phone: '622 111 333', operation: 'create' },
      kiosk,
    );
    expect(created.status).toBe(201);
    const booked = await stack.api.post(
      '/dates/service',
      { pacientId: created.body.data.id, code: created.body.code },
      kiosk,
    );
    expect(booked.status).toBe(201);

    const mails = await stack.mail.waitForMessagesTo(email, 2, 20000);
    // Already at the centre: told it is registered, with no calendar file and no area to go to.
    const booking = mails.find((m) => m.Subject === 'Registrado en el centro')!;
    expect(booking).toBeDefined();
    expect(booking.Text).not.toContain('http://crm.test/user');
    expect(booking.Text).not.toMatch(/área de paciente/);

    const invitation = mails.find((m) => m.Subject.startsWith('Cree su contraseña'))!;
    expect(invitation.Text).toContain('terminal de recepción');
    const token = linkToken(invitation.Text, 'reset-password');
    const reset = await stack.api.post(`/auth/resetPassword/${token}`, { password: 'clave-del-kiosko' });
    expect(reset.body).toEqual({ message: 'Password reset', email });
    const signIn = await stack.api.post('/auth/signIn', { email, password: 'clave-del-kiosko' });
    expect(signIn.status).toBe(200);
    expect(signIn.body).toMatchObject({ id: created.body.data.id, confirmed: true });
    expect((await stack.api.get('/dates/currentDate', signIn.body.sessiontoken)).body).toEqual({
      id: expect.any(String),
      date: booked.body.date,
      status: 'booked',
      bookingCode: booked.body.bookingCode,
    });
  });

  it('an expired or unknown invitation link answers 400 like a reset link', async () => {
    const response = await stack.api.post(`/auth/resetPassword/${'z'.repeat(43)}`, {
      password: 'algo-largo-1',
    });
    expect(response.status).toBe(400);
  });
});
