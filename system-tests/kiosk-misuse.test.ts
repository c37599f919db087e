/**
 * The kiosk cannot be abused (docs/product/kiosk.md#proof): with its own token, someone who types
 * another person's e-mail changes nothing of theirs without a code; one-time codes die after 5 wrong
 * tries and after their lifetime (a short one here, `ONBOARDING_CODE_TTL_MINUTES`); an onboarding
 * update never overwrites what is on file; the kiosk reads nobody by id and no list; an admin
 * disables and enables it like a staff account; its session ends at closing time, 12 hours at most.
 */
import { CENTRE_PROFILE_SEED, KIOSK_PROOF_MESSAGES, NO_CLOSURES } from '@crm/contracts';
import { sleep } from '@crm/testing';
import { slotAllocator } from '../test-support/slots';
import { closingTime } from '../services/auth/src/domain/kiosk-session';
import { emailedKioskCode } from '../test-support/kiosk-codes';
import { BOOTSTRAP, startStack, uniqueEmail, type Stack } from '../test-support/stack';
import { Summary } from './support/summary';

jest.setTimeout(60_000);

/** Codes live 20 seconds here, so that one can be seen to expire. */
const TTL_SECONDS = 20;

const summary = new Summary('kiosk misuse');
let stack: Stack;
let kiosk: string;
let admin: string;
let doctor: string;
const slots = slotAllocator(9);

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'notifications', 'config', 'appointments'],
    env: { ONBOARDING_CODE_TTL_MINUTES: String(TTL_SECONDS / 60) },
  });
  [kiosk, admin, doctor] = await Promise.all([
    stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password),
    stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password),
    stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password),
  ]);
}, 90_000);
afterAll(async () => {
  summary.print();
  await stack?.stop();
});

/** A patient with a password, name and phone, and an appointment on another day. */
async function patientWithBooking(label: string) {
  const person = {
    name: `Víctima ${label}`,
    phone: '611 222 333',
    email: uniqueEmail(label),
    password: 'clave-buena-1',
  };
  const signUp = await stack.api.post('/auth/signUp', person);
  expect(signUp.status).toBe(201);
  const booked = await stack.api.post('/dates', { date: slots.next() }, signUp.body.sessiontoken);
  expect(booked.status).toBe(201);
  return {
    ...person,
    id: signUp.body.id as string,
    appointment: booked.body as { id: string; bookingCode: string },
  };
}
const asKiosk = (path: string, body: object, token = kiosk) => stack.api.post(path, body, token);
const history = async (id: string) =>
  (
    (await stack.api.get(`/dates/history/userid/${id}`, doctor)).body.appointments as Array<{
      id: string;
      status: string;
    }>
  ).map((a) => [a.id, a.status]);

describe("someone else's e-mail at the kiosk", () => {
  it('gets 403 in Spanish without a code, or with a wrong one, on every call; the booking stays and no walk-in is made', async () => {
    const check = summary.case();
    const victim = await patientWithBooking('victima');
    const before = await history(victim.id);
    const wrongBooking = victim.appointment.bookingCode === 'KXR4T7' ? 'MW93PA' : 'KXR4T7';
    let refused = 0;
    for (const code of [undefined, '123456', wrongBooking]) {
      const withCode = code ? { code } : {};
      for (const [path, body] of [
        ['/dates/service/now', { pacientId: victim.id, ...withCode }],
        ['/dates/service', { pacientId: victim.id, ...withCode }],
        ['/dates/checkin', { pacientId: victim.id, ...withCode }],
        [
          '/users/onboarding',
          {
            email: victim.email,
            name: 'Suplantador',
            phone: '699 999 999',
            operation: 'update',
            ...withCode,
          },
        ],
        ['/users/onboarding/verify', { email: victim.email, code: code ?? '000000' }],
      ] as const) {
        const response = await asKiosk(path, body);
        expect([path, response.status]).toEqual([path, 403]);
        expect(Object.values(KIOSK_PROOF_MESSAGES)).toContain(response.body.message);
        refused++;
      }
    }
    summary.set('calls on a stranger’s account refused (403)', refused);
    expect(await history(victim.id)).toEqual(before);
    expect(before).toEqual([[victim.appointment.id, 'booked']]);
    const stored = (await stack.api.get(`/users/${victim.id}`, doctor)).body.data;
    expect(stored).toMatchObject({ name: victim.name, phone: '34611222333' });
    // The victim's e-mail got no code: nobody asked for one.
    expect((await stack.mail.messagesTo(victim.email)).map((m) => m.Subject)).not.toContain(
      'Su código para el quiosco del centro',
    );
    check.pass();
  });

  it('learns nothing about whether the address has an account', async () => {
    const check = summary.case();
    const victim = await patientWithBooking('existe');
    const unknown = uniqueEmail('no-existe');
    const sent = await Promise.all([
      asKiosk('/users/onboarding/code', { email: victim.email }),
      asKiosk('/users/onboarding/code', { email: unknown }),
    ]);
    expect(sent.map((r) => [r.status, r.body])).toEqual([
      [202, sent[0]!.body],
      [202, sent[0]!.body],
    ]);
    const proofs = await Promise.all([
      asKiosk('/users/onboarding/verify', { email: victim.email, code: '000001' }),
      asKiosk('/users/onboarding/verify', { email: unknown, code: '000001' }),
    ]);
    expect(proofs.map((r) => [r.status, r.body])).toEqual([
      [403, proofs[0]!.body],
      [403, proofs[0]!.body],
    ]);
    check.pass();
  });
});

describe('one-time codes', () => {
  it('die at the 5th wrong try: the right code is refused afterwards', async () => {
    const check = summary.case();
    const victim = await patientWithBooking('cinco');
    const code = await emailedKioskCode(stack, kiosk, victim.email);
    const guesses = ['000000', '111111', '222222', '333333', '444444', '555555']
      .filter((g) => g !== code)
      .slice(0, 5);
    for (const guess of guesses)
      expect((await asKiosk('/users/onboarding/verify', { email: victim.email, code: guess })).status).toBe(
        403,
      );
    expect((await asKiosk('/users/onboarding/verify', { email: victim.email, code })).status).toBe(403);
    expect((await asKiosk('/dates/service/now', { pacientId: victim.id, code })).status).toBe(403);
    expect(await history(victim.id)).toEqual([[victim.appointment.id, 'booked']]);
    summary.set('wrong tries that kill a code', guesses.length);
    check.pass();
  });

  it(`expire after their lifetime (${TTL_SECONDS} s here)`, async () => {
    const check = summary.case();
    const victim = await patientWithBooking('caduca');
    const code = await emailedKioskCode(stack, kiosk, victim.email);
    const requestedAt = Date.now();
    expect((await asKiosk('/users/onboarding/verify', { email: victim.email, code })).status).toBe(200);
    await sleep(Math.max(0, requestedAt + (TTL_SECONDS + 2) * 1000 - Date.now()));
    const late = await asKiosk('/users/onboarding/verify', { email: victim.email, code });
    expect(late).toMatchObject({ status: 403, body: { message: KIOSK_PROOF_MESSAGES.wrong } });
    expect((await asKiosk('/dates/checkin', { pacientId: victim.id, code })).status).toBe(403);
    check.pass();
  }, 90_000);
});

describe('onboarding an existing account', () => {
  it('with the right code fills only the empty fields: a name and phone on file are never overwritten', async () => {
    const check = summary.case();
    const victim = await patientWithBooking('sobrescribir');
    const code = await emailedKioskCode(stack, kiosk, victim.email);
    const update = await asKiosk('/users/onboarding', {
      email: victim.email,
      name: 'Suplantador',
      phone: '699 999 999',
      operation: 'update',
      code,
    });
    expect(update.status).toBe(200);
    const stored = (await stack.api.get(`/users/${victim.id}`, doctor)).body.data;
    expect(stored).toMatchObject({ name: victim.name, phone: '34611222333' });
    check.pass();
  });
});

describe('the kiosk token', () => {
  it('gets 403 on a patient by id or e-mail and on every list', async () => {
    const check = summary.case();
    const victim = await patientWithBooking('lista');
    const paths = [
      `/users/${victim.id}`,
      `/users/fetch?email=${encodeURIComponent(victim.email)}`,
      '/users',
      '/users?rol=PACIENT',
      '/users/pacients',
      '/users/staff',
      '/users/staff/names',
      '/dates',
      '/dates/agenda',
      `/dates/userid/${victim.id}`,
      `/dates/history/userid/${victim.id}`,
      `/dates/id/${victim.appointment.id}`,
    ];
    for (const path of paths) expect([path, (await stack.api.get(path, kiosk)).status]).toEqual([path, 403]);
    summary.set('reads refused to the kiosk token', paths.length);
    check.pass();
  });

  it('lasts until the centre closes today, 12 hours at most', async () => {
    const check = summary.case();
    const signedIn = await stack.api.post('/auth/signIn', {
      email: BOOTSTRAP.kiosk.email,
      password: BOOTSTRAP.kiosk.password,
    });
    const claims = JSON.parse(Buffer.from(signedIn.body.sessiontoken.split('.')[1], 'base64url').toString());
    const seconds = claims.exp - claims.iat;
    expect(seconds).toBeLessThanOrEqual(12 * 3600);
    const closes = closingTime(new Date(claims.iat * 1000), {
      openingHours: CENTRE_PROFILE_SEED.openingHours,
      closures: NO_CLOSURES,
    });
    if (closes && closes.getTime() > claims.iat * 1000) {
      expect(claims.exp).toBeLessThanOrEqual(Math.ceil(closes.getTime() / 1000));
      summary.set('kiosk session (signed in while open)', `${seconds} s, until closing`);
    } else {
      // Signed in when the centre does not open again today: the 12-hour cap.
      expect(seconds).toBe(12 * 3600);
      summary.set('kiosk session (signed in while closed)', `${seconds} s`);
    }
    check.pass();
  });

  it('is ended by an admin disabling the kiosk account (401 on its next call), and works again once enabled', async () => {
    const check = summary.case();
    const staff = await stack.api.get('/users/staff', admin);
    const account = staff.body.staff.find((p: { rol: string }) => p.rol === 'SERVICE_ACCOUNT');
    expect(account).toMatchObject({ email: BOOTSTRAP.kiosk.email, disabled: false });
    expect((await asKiosk('/users/onboarding/code', { email: uniqueEmail('antes') })).status).toBe(202);

    expect((await stack.api.post(`/users/staff/${account.id}/disable`, {}, admin)).status).toBe(200);
    // The next call of the kiosk's session: refused at once, at the gateway and by each service.
    expect((await asKiosk('/users/onboarding/code', { email: uniqueEmail('durante') })).status).toBe(401);
    expect((await asKiosk('/dates/checkin', { pacientId: account.id, code: '123456' })).status).toBe(401);
    expect(
      (
        await stack.api.post('/auth/signIn', {
          email: BOOTSTRAP.kiosk.email,
          password: BOOTSTRAP.kiosk.password,
        })
      ).status,
    ).toBe(403);

    expect((await stack.api.post(`/users/staff/${account.id}/enable`, {}, admin)).status).toBe(200);
    kiosk = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    expect((await asKiosk('/users/onboarding/code', { email: uniqueEmail('despues') })).status).toBe(202);
    check.pass();
  });
});
