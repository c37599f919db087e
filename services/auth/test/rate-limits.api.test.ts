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

describe('per-account limits', () => {
  it('answers 429 after too many sign-in attempts on one account, even with the right password', async () => {
    const person = {
      name: 'Limitada',
      phone: '612999888',
      email: uniqueEmail('limited'),
      password: 'contraseña-buena',
    };
    await stack.api.post('/auth/signUp', person);
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

  it('answers 429 after too many forgotten-password requests for one address', async () => {
    const email = uniqueEmail('forgetful');
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push((await stack.api.post('/auth/forgotPassword', { name: 'X Y', email })).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
