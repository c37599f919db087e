/**
 * The second factor cannot be guessed: wrong codes are counted per account, across challenges and
 * addresses, before each code is checked (atomically: twenty parallel codes on one challenge are not
 * twenty guesses); after two slips each try waits longer; MFA_MAX_FAILURES lock the factor (not the
 * password), recovery codes included, and the holder gets an e-mail. Failed codes and sign-ins are
 * recorded in the access trail against the account they targeted; an account disabled during its
 * enrolment gets no session from it.
 */
import { Redis } from 'ioredis';
import { sleep } from '@crm/testing';
import { BOOTSTRAP, startStack, type Stack } from '../test-support/stack';
import { codeAt, invitedDoctor } from '../test-support/staff-accounts';
import { Summary } from './support/summary';

const MAX_FAILURES = 4;
const summary = new Summary('second factor guessing');
let stack: Stack;
let admin: string;
let redis: Redis;

beforeAll(async () => {
  stack = await startStack({
    components: ['auth', 'notifications', 'audit'],
    env: { MFA_REQUIRED_ROLES: 'DOCTOR', MFA_MAX_FAILURES: String(MAX_FAILURES), MFA_LOCK_MINUTES: '1' },
  });
  admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  redis = new Redis(stack.env.REDIS_URL!);
}, 120_000);
afterAll(async () => {
  summary.print();
  redis?.disconnect();
  await stack?.stop();
});

/** A six-digit code that is none of the ones the server accepts now (±1 step). */
const wrongCodeFor = (secret: string) => {
  const valid = new Set([-1, 0, 1, 2].map((offset) => codeAt(secret, offset)));
  let code = 100000;
  while (valid.has(String(code))) code += 1;
  return String(code);
};

/** An invited doctor who set a password; signed in once to set up the factor unless `enrol` is false. */
async function doctor(label: string, enrol = true) {
  const { id, email, password } = await invitedDoctor(stack, admin, label);
  const first = await stack.api.post('/auth/signIn', { email, password });
  const setup = await stack.api.post('/auth/signIn/mfa/setup', { mfaToken: first.body.mfaToken });
  const person = { id, email, password, secret: setup.body.secret as string };
  if (!enrol) return { ...person, mfaToken: first.body.mfaToken as string, recoveryCodes: [] as string[] };
  const confirmed = await stack.api.post('/auth/signIn/mfa/confirm', {
    mfaToken: first.body.mfaToken,
    code: codeAt(person.secret, 0),
  });
  expect(confirmed.status).toBe(200);
  return { ...person, mfaToken: '', recoveryCodes: confirmed.body.recoveryCodes as string[] };
}

const challenge = async (person: { email: string; password: string }) => {
  const signIn = await stack.api.post('/auth/signIn', { email: person.email, password: person.password });
  expect(signIn.body).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
  return signIn.body.mfaToken as string;
};
const tryCode = (mfaToken: string, code: string) => stack.api.post('/auth/signIn/mfa', { mfaToken, code });
const failuresStored = async (id: string) => Number(await redis.hget(`auth:mfa-failures:${id}`, 'count'));

describe('guessing the second factor', () => {
  it('checks at most two of 20 parallel wrong codes on one challenge, and counts exactly those', async () => {
    const check = summary.case();
    const person = await doctor('parallel');
    const mfaToken = await challenge(person);
    const wrong = wrongCodeFor(person.secret);
    const answers = await Promise.all(Array.from({ length: 20 }, () => tryCode(mfaToken, wrong)));
    const statuses = answers.map((answer) => answer.status);
    const checked = statuses.filter((status) => status === 401).length;
    summary.set('parallel codes checked (of 20)', checked);
    expect(checked).toBe(2);
    expect(statuses.filter((status) => status === 429)).toHaveLength(18);
    expect(await failuresStored(person.id)).toBe(2);
    check.pass();
  });

  it('counts across challenges, makes each try wait longer, then locks the factor and e-mails the holder', async () => {
    const check = summary.case();
    const person = await doctor('across');
    const wrong = () => wrongCodeFor(person.secret);
    const started = Date.now();
    // Each guess on a fresh sign-in (a new mfaToken): the count is the account's.
    expect((await tryCode(await challenge(person), wrong())).status).toBe(401);
    expect((await tryCode(await challenge(person), wrong())).status).toBe(401);
    const tooSoon = await tryCode(await challenge(person), codeAt(person.secret, 1));
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.message).toMatch(/Demasiados intentos/);
    await sleep(2_100);
    expect((await tryCode(await challenge(person), wrong())).status).toBe(401);
    expect((await tryCode(await challenge(person), wrong())).status).toBe(429);
    await sleep(4_100);
    expect((await tryCode(await challenge(person), wrong())).status).toBe(401); // the 4th: locked now
    expect(await failuresStored(person.id)).toBe(MAX_FAILURES);
    summary.set(
      `s from the 1st wrong code to the lock (${MAX_FAILURES} failures)`,
      ((Date.now() - started) / 1000).toFixed(1),
    );

    const right = await tryCode(await challenge(person), codeAt(person.secret, 1));
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/bloqueada por demasiados códigos incorrectos/);
    expect((await tryCode(await challenge(person), person.recoveryCodes[0]!)).status).toBe(429);
    // The password itself is not locked: sign-in still answers with a challenge.
    expect(
      (await stack.api.post('/auth/signIn', { email: person.email, password: person.password })).status,
    ).toBe(200);
    const mails = await stack.mail.waitForMessagesTo(person.email, 2);
    const warning = mails.find((mail) => /bloqueado la verificación en dos pasos/.test(mail.Subject));
    expect(warning?.Text).toMatch(/4 códigos de verificación incorrectos/);
    expect(warning?.Text).toMatch(/cambie su contraseña/);
    check.pass();
  });

  it('records failed codes and failed sign-ins against the account they targeted', async () => {
    const check = summary.case();
    const person = await doctor('trail');
    await tryCode(await challenge(person), wrongCodeFor(person.secret));
    expect(
      (await stack.api.post('/auth/signIn', { email: person.email, password: 'no-es-esta' })).status,
    ).toBe(401);
    const deadline = Date.now() + 15_000;
    let actions: string[] = [];
    while (Date.now() < deadline) {
      actions = [];
      for (const action of ['auth.signin', 'auth.2fa.verify']) {
        const page = await stack.api.get(`/audit?action=${action}&limit=100`, admin);
        const entries = page.body.entries as Array<{
          resourceId: string | null;
          actorRol: string;
          outcome: string;
        }>;
        for (const entry of entries.filter((e) => e.resourceId === person.id && e.outcome === 'failure'))
          actions.push(`${action}:${entry.actorRol}`);
      }
      if (actions.length >= 2) break;
      await sleep(300);
    }
    expect(actions.sort()).toEqual(['auth.2fa.verify:ANONYMOUS', 'auth.signin:ANONYMOUS']);
    check.pass();
  });

  it('gives no session to an account disabled while it was enrolling', async () => {
    const check = summary.case();
    const person = await doctor('disabled-enrol', false);
    expect((await stack.api.post(`/users/staff/${person.id}/disable`, {}, admin)).status).toBe(200);
    const confirmed = await stack.api.post('/auth/signIn/mfa/confirm', {
      mfaToken: person.mfaToken,
      code: codeAt(person.secret, 0),
    });
    expect(confirmed.status).toBe(403);
    expect(confirmed.body.sessiontoken).toBeUndefined();
    check.pass();
  });
});
