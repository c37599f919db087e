import { startStack, uniqueEmail, type Stack } from '../../../test-support/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    components: ['auth'],
    env: { SIGNIN_MAX_ATTEMPTS: '3', FORGOT_PASSWORD_MAX_ATTEMPTS: '2' },
  });
});
afterAll(async () => {
  await stack?.stop();
});

/** A patient who signed up with the password 'contraseña-buena'. */
async function signedUp(name: string, phone: string, emailLabel: string) {
  const person = { name, phone, email: uniqueEmail(emailLabel), password: 'contraseña-buena' };
  expect((await stack.api.post('/auth/signUp', person)).status).toBe(201);
  return person;
}

describe('per-account limits', () => {
  it('answers 429 after too many failed sign-ins on one account from one address, even with the right password', async () => {
    const person = await signedUp('Limitada', '612999888', 'limited');
    const attempts = [];
    for (let i = 0; i < 3; i++)
      attempts.push(await stack.api.post('/auth/signIn', { email: person.email, password: 'mala' }));
    expect(attempts.map((a) => a.status)).toEqual([401, 401, 401]);
    const blocked = await stack.api.post('/auth/signIn', { email: person.email, password: person.password });
    expect(blocked.status).toBe(429);
    expect(blocked.body.message).toMatch(/Demasiados intentos/);

    const otherAccount = await stack.api.post('/auth/signIn', { email: uniqueEmail('other'), password: 'x' });
    expect(otherAccount.status).toBe(401);
  });

  it('counts failures only: successful sign-ins never add up, and a success resets the count', async () => {
    const person = await signedUp('Frecuente', '612999777', 'often');
    const good = () => stack.api.post('/auth/signIn', { email: person.email, password: person.password });
    const bad = () => stack.api.post('/auth/signIn', { email: person.email, password: 'mala' });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await good()).status);
    for (const attempt of [bad, bad, good, bad, bad, good]) statuses.push((await attempt()).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 401, 401, 200, 401, 401, 200]);
  });

  it('an attacker’s failures lock the account only from the attacker’s address, never the owner', async () => {
    const person = await signedUp('Atacada', '612999666', 'victim');
    // Straight to the service, which trusts X-Forwarded-For from the gateway's (loopback) address.
    const signInFrom = (address: string, password: string) =>
      fetch(`${stack.components.auth!.url}/auth/signIn`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': address },
        body: JSON.stringify({ email: person.email, password }),
      });
    const attacker: number[] = [];
    for (let i = 0; i < 4; i++) attacker.push((await signInFrom('203.0.113.7', 'adivina')).status);
    expect(attacker).toEqual([401, 401, 401, 429]);
    expect((await signInFrom('198.51.100.20', person.password)).status).toBe(200);
  });

  it('answers 429 after too many forgotten-password requests for one address', async () => {
    const email = uniqueEmail('forgetful');
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await stack.api.post('/auth/forgotPassword', { name: 'X Y', email })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
