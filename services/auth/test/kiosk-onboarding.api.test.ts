import { CENTRE_PROFILE_SEED, KIOSK_PROOF_MESSAGES, NO_CLOSURES } from '@crm/contracts';
import { sleep } from '@crm/testing';
import { emailedKioskCode, KIOSK_CODE_SUBJECT } from '../../../test-support/kiosk-codes';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';
import { closingTime, KIOSK_SESSION_MAX_SECONDS } from '../src/domain/kiosk-session';

/**
 * The kiosk and the accounts of the people in front of it (docs/product/kiosk.md#proof): one-time
 * codes e-mailed on request with the same answer for any address, the proof that names the patient
 * and what it lacks, onboarding updates that need the code and fill only empty fields, the kiosk's
 * lost reads, its session length, and an admin disabling it.
 */

let stack: Stack;
let kiosk: string;
let doctor: string;
/** Sends per address are limited here as in production (3 per window). */
const MAX_SENDS = 3;

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'notifications', 'config'],
    env: { ONBOARDING_CODE_MAX_SENDS: String(MAX_SENDS) },
  });
  kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
  doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

/** A patient a doctor registered, with a password, name and phone. */
async function registered(label: string) {
  const person = {
    name: `Paciente ${label}`,
    phone: '611 222 333',
    email: uniqueEmail(label),
    password: 'clave-de-prueba-1',
  };
  const created = await stack.api.post('/auth/doctor/patient/create', person, doctor);
  expect(created.status).toBe(201);
  return { ...person, id: created.body.id as string };
}
const requestCode = (email: string) => stack.api.post('/users/onboarding/code', { email }, kiosk);
const verify = (email: string, code: string) =>
  stack.api.post('/users/onboarding/verify', { email, code }, kiosk);

describe('one-time codes (POST /users/onboarding/code)', () => {
  it('answers the same 202 for a patient, an unknown address and a staff account; only the patient gets an e-mail', async () => {
    const patient = await registered('codigo');
    const unknown = uniqueEmail('nadie');
    const answers = await Promise.all([
      requestCode(patient.email),
      requestCode(unknown),
      requestCode(BOOTSTRAP.doctor.email),
    ]);
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202]);
    expect(new Set(answers.map((a) => JSON.stringify(a.body))).size).toBe(1);
    expect(answers[0]!.body.message).toMatch(/^Si el correo pertenece a una cuenta de paciente/);
    const [mail] = await stack.mail.waitForMessagesTo(patient.email, 1);
    expect(mail!.Subject).toBe(KIOSK_CODE_SUBJECT);
    expect(mail!.Subject).not.toMatch(/\d{6}/);
    expect(mail!.Text).toMatch(/Su código: \d{6}/);
    expect(mail!.Text).toContain('El código es válido durante 10 minutos.');
    await sleep(1000);
    expect(await stack.mail.messagesTo(unknown)).toHaveLength(0);
    const toDoctor = await stack.mail.messagesTo(BOOTSTRAP.doctor.email);
    expect(toDoctor.filter((m) => m.Subject === KIOSK_CODE_SUBJECT)).toHaveLength(0);
  });

  it('keeps only a hash: the code is not in the database', async () => {
    const patient = await registered('hash');
    const code = await emailedKioskCode(stack, kiosk, patient.email);
    const user = await stack.auth.models.User.findById(patient.id).lean();
    expect(JSON.stringify(user)).not.toContain(code);
  });

  it(`limits the codes sent to one address (${MAX_SENDS} per window), known or not, with a Spanish 429`, async () => {
    for (const email of [(await registered('limite')).email, uniqueEmail('limite-nadie')]) {
      for (let i = 0; i < MAX_SENDS; i++) expect((await requestCode(email)).status).toBe(202);
      const refused = await requestCode(email);
      expect(refused.status).toBe(429);
      expect(refused.body.message).toMatch(/^Demasiados intentos/);
    }
  });

  it('refuses a body without a valid e-mail (400 on email)', async () => {
    const response = await stack.api.post('/users/onboarding/code', { email: 'no-es-un-correo' }, kiosk);
    expect(response).toMatchObject({ status: 400, body: { errors: [{ field: 'email' }] } });
  });
});

describe('the proof (POST /users/onboarding/verify)', () => {
  it('names the patient and what the account lacks once the code matches; nothing before', async () => {
    const patient = await registered('prueba');
    const code = await emailedKioskCode(stack, kiosk, patient.email);
    const proven = await verify(patient.email.toUpperCase(), code);
    expect(proven).toMatchObject({ status: 200, body: { pacientId: patient.id, missing: [] } });
    expect(proven.body).not.toHaveProperty('patient');

    const created = await stack.api.post(
      '/users/onboarding',
      { email: uniqueEmail('sin-telefono'), name: 'Sin Teléfono', operation: 'create' },
      kiosk,
    );
    const lacking = await verify(created.body.data.email, created.body.code);
    expect(lacking.body).toEqual({ pacientId: created.body.data.id, missing: ['phone'] });
  });

  // (Booking codes are asked of the appointments service: services/appointments/test/booking-codes.)
  it('answers a wrong code, an unknown address and a staff account alike: 403 in Spanish', async () => {
    const patient = await registered('errores');
    const code = await emailedKioskCode(stack, kiosk, patient.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = [
      await verify(patient.email, wrong),
      await verify(uniqueEmail('nadie'), code),
      await verify(BOOTSTRAP.admin.email, code),
    ];
    for (const answer of answers)
      expect(answer).toMatchObject({
        status: 403,
        body: { message: KIOSK_PROOF_MESSAGES.wrong, errors: [{ field: 'code' }] },
      });
  });

  it('kills a code at its 5th wrong try, also when the tries come at once; a new request gives a new code', async () => {
    const patient = await registered('cinco');
    const code = await emailedKioskCode(stack, kiosk, patient.email);
    const wrong = ['000001', '000002', '000003', '000004', '000005', '000006', '000007'].filter(
      (c) => c !== code,
    );
    const answers = await Promise.all(wrong.map((guess) => verify(patient.email, guess)));
    expect(answers.every((a) => a.status === 403)).toBe(true);
    expect((await verify(patient.email, code)).status).toBe(403);

    const next = await emailedKioskCode(stack, kiosk, patient.email);
    expect((await verify(patient.email, next)).status).toBe(200);
  });

  it('replaces the previous code with each new one', async () => {
    const patient = await registered('nuevo');
    const first = await emailedKioskCode(stack, kiosk, patient.email);
    const second = await emailedKioskCode(stack, kiosk, patient.email);
    if (first !== second) expect((await verify(patient.email, first)).status).toBe(403);
    expect((await verify(patient.email, second)).status).toBe(200);
  });
});

describe('onboarding (POST /users/onboarding)', () => {
  it('updates an existing account only with its code, and fills only the fields it lacks', async () => {
    const patient = await registered('relleno');
    const overwrite = {
      email: patient.email,
      name: 'Otra Persona',
      phone: '699 000 999',
      operation: 'update',
    };
    expect(await stack.api.post('/users/onboarding', overwrite, kiosk)).toMatchObject({
      status: 403,
      body: { message: KIOSK_PROOF_MESSAGES.missing },
    });
    expect((await stack.api.post('/users/onboarding', { ...overwrite, code: '123456' }, kiosk)).status).toBe(
      403,
    );
    const code = await emailedKioskCode(stack, kiosk, patient.email);
    const kept = await stack.api.post('/users/onboarding', { ...overwrite, code }, kiosk);
    expect(kept.status).toBe(200);
    expect(kept.body.data).toMatchObject({ name: patient.name, phone: '34611222333' });
    const stored = (await stack.api.get(`/users/${patient.id}`, doctor)).body.data;
    expect(stored).toMatchObject({ name: patient.name, phone: '34611222333' });

    // An account without a phone gets the one typed at the kiosk; its name stays.
    const created = await stack.api.post(
      '/users/onboarding',
      { email: uniqueEmail('completa'), name: 'Nombre Original', operation: 'create' },
      kiosk,
    );
    const completed = await stack.api.post(
      '/users/onboarding',
      {
        email: created.body.data.email,
        name: 'Nombre Cambiado',
        phone: '622 333 444',
        operation: 'update',
        code: created.body.code,
      },
      kiosk,
    );
    expect(completed.body.data).toMatchObject({ name: 'Nombre Original', phone: '34622333444' });
  });

  it('does not accept a booking code for an update (it is printed and lives as long as the appointment)', async () => {
    const patient = await registered('reserva');
    const response = await stack.api.post(
      '/users/onboarding',
      { email: patient.email, phone: '699 000 999', operation: 'update', code: 'KXR4T7' },
      kiosk,
    );
    expect(response.status).toBe(403);
  });
});

describe('what the kiosk token may no longer do', () => {
  it('gets 403 on a patient by id, by e-mail, and on every list', async () => {
    const patient = await registered('lecturas');
    for (const path of [
      `/users/${patient.id}`,
      `/users/fetch?email=${encodeURIComponent(patient.email)}`,
      '/users',
      '/users/pacients',
      '/users/staff',
      '/users/staff/names',
    ])
      expect([path, (await stack.api.get(path, kiosk)).status]).toEqual([path, 403]);
  });
});

describe('the kiosk session', () => {
  it('ends at the centre’s closing time, and never lasts more than 12 hours', async () => {
    const signedIn = await stack.api.post('/auth/signIn', {
      email: BOOTSTRAP.kiosk.email,
      password: BOOTSTRAP.kiosk.password,
    });
    const claims = JSON.parse(Buffer.from(signedIn.body.sessiontoken.split('.')[1], 'base64url').toString());
    const lasts = claims.exp - claims.iat;
    expect(lasts).toBeGreaterThan(0);
    expect(lasts).toBeLessThanOrEqual(KIOSK_SESSION_MAX_SECONDS);
    const closes = closingTime(new Date(claims.iat * 1000), {
      openingHours: CENTRE_PROFILE_SEED.openingHours,
      closures: NO_CLOSURES,
    });
    if (closes && closes.getTime() > claims.iat * 1000)
      expect(claims.exp).toBeLessThanOrEqual(Math.ceil(closes.getTime() / 1000));
    else expect(lasts).toBe(KIOSK_SESSION_MAX_SECONDS);

    // Other accounts keep the usual session length (JWT_TTL, 8 h).
    const staffToken = JSON.parse(Buffer.from(doctor.split('.')[1]!, 'base64url').toString());
    expect(staffToken.exp - staffToken.iat).toBe(8 * 3600);
  });

  it('is ended by an admin disabling the kiosk account (401 on the next call), and signs in again once enabled', async () => {
    const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
    const own = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    const listed = await stack.api.get('/users/staff', admin);
    const account = listed.body.staff.find(
      (person: { email: string }) => person.email === BOOTSTRAP.kiosk.email,
    );
    expect(account).toMatchObject({ rol: 'SERVICE_ACCOUNT', disabled: false });

    const disabled = await stack.api.post(`/users/staff/${account.id}/disable`, {}, admin);
    expect(disabled).toMatchObject({ status: 200, body: { disabled: true } });
    expect((await requestCode(uniqueEmail('tras-desactivar'))).status).toBe(401);
    expect((await stack.api.post('/users/onboarding/code', { email: uniqueEmail('x') }, own)).status).toBe(
      401,
    );
    const refused = await stack.api.post('/auth/signIn', {
      email: BOOTSTRAP.kiosk.email,
      password: BOOTSTRAP.kiosk.password,
    });
    expect(refused.status).toBe(403);

    expect((await stack.api.post(`/users/staff/${account.id}/enable`, {}, admin)).status).toBe(200);
    kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    expect((await requestCode(uniqueEmail('tras-activar'))).status).toBe(202);
    // The names the staff read stay doctors and admins only.
    const names = await stack.api.get('/users/staff/names', admin);
    expect(names.body.staff.map((person: { rol: string }) => person.rol)).not.toContain('SERVICE_ACCOUNT');
  });
});
