/**
 * Staff accounts and the second factor: an admin invites, lists, disables and enables
 * doctors and admins; TOTP (RFC 6238) with single-use recovery codes, mandatory enrolment for the
 * roles in MFA_REQUIRED_ROLES at their next sign-in, and wrong, expired or replayed codes refused.
 * Real MongoDB, RabbitMQ, Redis and Mailpit.
 */
import mongoose from 'mongoose';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../../../test-support/stack';
import { codeAt, invitedDoctor as invitedStaffDoctor } from '../../../test-support/staff-accounts';
import type { AuthService } from '../src/app';

let stack: Stack;
let admin: string;
beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'notifications'],
    env: { MFA_REQUIRED_ROLES: 'DOCTOR' },
  });
  admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
}, 60_000);
afterAll(async () => {
  await stack?.stop();
});

const invitedDoctor = (label: string) => invitedStaffDoctor(stack, admin, label);

/** Signs in and sets up the factor the role requires; the secret and the session. */
async function enrolled(label: string) {
  const doctor = await invitedDoctor(label);
  const first = await stack.api.post('/auth/signIn', { email: doctor.email, password: doctor.password });
  const setup = await stack.api.post('/auth/signIn/mfa/setup', { mfaToken: first.body.mfaToken });
  const confirmed = await stack.api.post('/auth/signIn/mfa/confirm', {
    mfaToken: first.body.mfaToken,
    code: codeAt(setup.body.secret, 0),
  });
  expect(confirmed.status).toBe(200);
  return {
    ...doctor,
    secret: setup.body.secret as string,
    recoveryCodes: confirmed.body.recoveryCodes as string[],
    session: confirmed.body.sessiontoken as string,
  };
}

describe('staff accounts: POST/GET /users/staff, POST /users/staff/:id/disable and /enable', () => {
  it('invites a doctor by e-mail (no password until the link), lists them, and only an admin may', async () => {
    const doctor = await invitedDoctor('invited');
    expect(doctor.invitation.Subject).toMatch(/Cree su contraseña para la gestión/);
    expect(doctor.invitation.Text).toMatch(/como médico\/a/);
    const list = await stack.api.get('/users/staff', admin);
    expect(list.status).toBe(200);
    expect(list.body.staff).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: doctor.id,
          rol: 'DOCTOR',
          disabled: false,
          mfaEnabled: false,
          invited: false,
        }),
      ]),
    );
    // Staff are the doctors, the admins and the kiosk accounts (an admin disables a kiosk like the others).
    const roles = new Set(list.body.staff.map((s: { rol: string }) => s.rol));
    expect([...roles].every((rol) => ['DOCTOR', 'ADMIN', 'SERVICE_ACCOUNT'].includes(rol as string))).toBe(
      true,
    );
    expect(roles.has('SERVICE_ACCOUNT')).toBe(true);

    // A doctor (signed in with the factor their role requires) manages no staff.
    const doctorToken = (await enrolled('not-admin')).session;
    expect((await stack.api.get('/users/staff', doctorToken)).status).toBe(403);
    const refused = await stack.api.post(
      '/users/staff',
      { name: 'X', email: uniqueEmail('x'), rol: 'DOCTOR' },
      doctorToken,
    );
    expect(refused.status).toBe(403);
    const badRole = await stack.api.post(
      '/users/staff',
      { name: 'Kiosko', email: uniqueEmail('k'), rol: 'SERVICE_ACCOUNT' },
      admin,
    );
    expect(badRole.status).toBe(400);
    expect(badRole.body.errors[0]).toMatchObject({ field: 'rol' });
    const taken = await stack.api.post(
      '/users/staff',
      { name: 'Otra', email: doctor.email, rol: 'ADMIN' },
      admin,
    );
    expect(taken.status).toBe(409);
  });

  it('gives a staff invitation 48 hours (a patient invitation keeps its 7 days)', async () => {
    const email = uniqueEmail('staff-ttl');
    const patientEmail = uniqueEmail('patient-ttl');
    const started = Date.now();
    const staffInvited = await stack.api.post(
      '/users/staff',
      { name: 'Dr. Plazo', email, rol: 'DOCTOR' },
      admin,
    );
    const patientInvited = await stack.api.post(
      '/auth/doctor/patient/create',
      { name: 'Paciente Plazo', email: patientEmail, phone: '699111222' },
      admin,
    );
    expect([staffInvited.status, patientInvited.status]).toEqual([201, 201]);
    const connection = await mongoose
      .createConnection(stack.mongoUrl, { dbName: stack.components.auth!.database })
      .asPromise();
    try {
      const users = connection.collection<{ email: string; resetExpiresAt: Date }>('users');
      const hoursLeft = async (address: string) => {
        const user = await users.findOne({ email: address });
        return (user!.resetExpiresAt.getTime() - started) / 3600_000;
      };
      expect(await hoursLeft(email)).toBeCloseTo(48, 1);
      expect(await hoursLeft(patientEmail)).toBeCloseTo(168, 1);
    } finally {
      await connection.close();
    }
  });

  it('disabling ends the account’s sessions at once and refuses sign-in; enabling lets it in again', async () => {
    const doctor = await enrolled('disabled');
    const signIn = await stack.api.post('/auth/signIn', { email: doctor.email, password: doctor.password });
    const session = (
      await stack.api.post('/auth/signIn/mfa', {
        mfaToken: signIn.body.mfaToken,
        code: codeAt(doctor.secret, 1),
      })
    ).body.sessiontoken as string;
    expect((await stack.api.get('/auth/currentUser', session)).status).toBe(200);

    const disabled = await stack.api.post(`/users/staff/${doctor.id}/disable`, {}, admin);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: doctor.id, disabled: true });
    expect((await stack.api.get('/auth/currentUser', session)).status).toBe(401);
    const blocked = await stack.api.post('/auth/signIn', { email: doctor.email, password: doctor.password });
    expect(blocked.status).toBe(403);
    expect(blocked.body.message).toBe(
      'Esta cuenta está desactivada. Consulte con la administración del centro',
    );

    expect((await stack.api.post(`/users/staff/${doctor.id}/enable`, {}, admin)).body).toMatchObject({
      disabled: false,
    });
    const back = await stack.api.post('/auth/signIn', { email: doctor.email, password: doctor.password });
    expect(back.body).toMatchObject({ mfaRequired: true });

    const adminId = (await stack.api.get('/auth/currentUser', admin)).body.id;
    expect((await stack.api.post(`/users/staff/${adminId}/disable`, {}, admin)).status).toBe(409);
    const patient = await stack.api.post('/auth/signUp', {
      name: 'Paciente Ajeno',
      phone: '612345678',
      email: uniqueEmail('not-staff'),
      password: 'paciente-no-personal-1',
    });
    expect((await stack.api.post(`/users/staff/${patient.body.id}/disable`, {}, admin)).status).toBe(404);
  });
});

describe('the second factor', () => {
  it('makes a role in MFA_REQUIRED_ROLES enrol at sign-in: no session until the first code, then 10 recovery codes', async () => {
    const doctor = await invitedDoctor('enrol');
    const first = await stack.api.post('/auth/signIn', { email: doctor.email, password: doctor.password });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ mfaRequired: true, mfaSetupRequired: true, mfaToken: expect.any(String) });

    const setup = await stack.api.post('/auth/signIn/mfa/setup', { mfaToken: first.body.mfaToken });
    expect(setup.status).toBe(200);
    expect(setup.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/.+\?secret=[A-Z2-7]+/);
    expect(setup.body.otpauthUrl).toContain(encodeURIComponent(doctor.email));
    expect(setup.body.qrDataUrl).toMatch(/^data:image\/png;base64,/);

    const wrong = await stack.api.post('/auth/signIn/mfa/confirm', {
      mfaToken: first.body.mfaToken,
      code: '000000',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.errors[0]).toMatchObject({ field: 'code', message: 'Código incorrecto o caducado' });
    const confirmed = await stack.api.post('/auth/signIn/mfa/confirm', {
      mfaToken: first.body.mfaToken,
      code: codeAt(setup.body.secret),
    });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(new Set(confirmed.body.recoveryCodes).size).toBe(10);
    expect(confirmed.body).toMatchObject({ id: doctor.id, rol: 'DOCTOR', sessiontoken: expect.any(String) });
    expect((await stack.api.get('/auth/currentUser', confirmed.body.sessiontoken)).status).toBe(200);
    // The secret is stored encrypted, never as given.
    const auth = stack.components.auth!.handle as AuthService;
    const stored = await auth.models.User.findById(doctor.id).lean();
    expect(JSON.stringify(stored)).not.toContain(setup.body.secret);
  });

  it('signs in with a code once: wrong, replayed, unknown-token and reused recovery codes get 401', async () => {
    const doctor = await enrolled('codes');
    const challenge = async () =>
      (await stack.api.post('/auth/signIn', { email: doctor.email, password: doctor.password })).body;
    const first = await challenge();
    expect(first).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
    expect(
      (await stack.api.post('/auth/signIn/mfa', { mfaToken: first.mfaToken, code: '123456' })).status,
    ).toBe(401);
    const code = codeAt(doctor.secret, 1);
    const ok = await stack.api.post('/auth/signIn/mfa', { mfaToken: first.mfaToken, code });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: doctor.id, rol: 'DOCTOR', sessiontoken: expect.any(String) });
    // The same token again, and the same code on a new sign-in: both refused.
    expect((await stack.api.post('/auth/signIn/mfa', { mfaToken: first.mfaToken, code })).status).toBe(401);
    const replay = await stack.api.post('/auth/signIn/mfa', { mfaToken: (await challenge()).mfaToken, code });
    expect(replay.status).toBe(401);
    expect(
      (await stack.api.post('/auth/signIn/mfa', { mfaToken: 'y'.repeat(43), code: codeAt(doctor.secret, 1) }))
        .status,
    ).toBe(401);

    const recovery = doctor.recoveryCodes[3]!;
    const withRecovery = await stack.api.post('/auth/signIn/mfa', {
      mfaToken: (await challenge()).mfaToken,
      code: recovery,
    });
    expect(withRecovery.status).toBe(200);
    const again = await stack.api.post('/auth/signIn/mfa', {
      mfaToken: (await challenge()).mfaToken,
      code: recovery,
    });
    expect(again.status).toBe(401);
  });

  it('lets two wrong codes pass, then makes the next try wait, even with the right code', async () => {
    const doctor = await enrolled('guesses');
    const { mfaToken } = (
      await stack.api.post('/auth/signIn', { email: doctor.email, password: doctor.password })
    ).body;
    for (let i = 0; i < 2; i++)
      expect((await stack.api.post('/auth/signIn/mfa', { mfaToken, code: `00000${i}` })).status).toBe(401);
    const waiting = await stack.api.post('/auth/signIn/mfa', { mfaToken, code: codeAt(doctor.secret, 1) });
    expect(waiting.status).toBe(429);
    expect(waiting.body.message).toMatch(/Demasiados intentos/);
  });

  it('lets a signed-in admin set it up from a session; the kiosk account and anonymous callers may not', async () => {
    const email = uniqueEmail('admin-mfa');
    const invited = await stack.api.post('/users/staff', { name: 'Admin Dos', email, rol: 'ADMIN' }, admin);
    const [mail] = await stack.mail.waitForMessagesTo(email, 1);
    const token = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail!.Text)![1]!;
    await stack.api.post(`/auth/resetPassword/${token}`, { password: 'gestion-del-centro-42' });
    const session = await stack.signIn(email, 'gestion-del-centro-42');
    const setup = await stack.api.post('/auth/mfa/setup', {}, session);
    expect(setup.status).toBe(200);
    const confirmed = await stack.api.post('/auth/mfa/confirm', { code: codeAt(setup.body.secret) }, session);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.recoveryCodes).toHaveLength(10);
    expect(confirmed.body.sessiontoken).toBeUndefined();
    expect((await stack.api.post('/auth/mfa/setup', {}, session)).status).toBe(409);
    expect(
      (await stack.api.post('/auth/signIn', { email, password: 'gestion-del-centro-42' })).body,
    ).toMatchObject({
      mfaRequired: true,
    });
    expect(invited.status).toBe(201);

    const kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    expect((await stack.api.post('/auth/mfa/setup', {}, kiosk)).status).toBe(403);
    expect((await stack.api.post('/auth/mfa/setup', {})).status).toBe(401);
  });
});
