/**
 * Erasing the account asks for the password, so it must not be a way to guess one faster than
 * sign-in allows: `DELETE /users/me` counts its wrong passwords on the sign-in's own counters
 * (SIGNIN_MAX_ATTEMPTS per account and address), and a correct password afterwards is refused too.
 */
import { startStack, uniqueEmail, type Stack } from '../test-support/stack';
import { Summary } from './support/summary';

const summary = new Summary('erasure is no password oracle');
let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ components: ['auth'], env: { SIGNIN_MAX_ATTEMPTS: '5' } });
}, 60_000);
afterAll(async () => {
  summary.print();
  await stack?.stop();
});

async function patient(label: string) {
  const person = {
    name: 'Paciente Oráculo',
    phone: '612345678',
    email: uniqueEmail(label),
    password: 'contraseña-buena',
  };
  const signUp = await stack.api.post('/auth/signUp', person);
  expect(signUp.status).toBe(201);
  return { ...person, token: signUp.body.sessiontoken as string };
}

const erase = (token: string, password: string) => stack.api.delete('/users/me', token, { password });

describe('DELETE /users/me', () => {
  it('answers 429 after the sign-in limit of wrong passwords, also for the right one, and erases nothing', async () => {
    const check = summary.case();
    const person = await patient('oracle');
    const statuses: number[] = [];
    for (let i = 0; i < 40; i++) statuses.push((await erase(person.token, `mala-${i}`)).status);
    summary.set('wrong passwords answered 401', statuses.filter((s) => s === 401).length);
    summary.set('wrong passwords answered 429', statuses.filter((s) => s === 429).length);
    expect(statuses.slice(0, 5)).toEqual([401, 401, 401, 401, 401]);
    expect(statuses.slice(5).every((status) => status === 429)).toBe(true);
    const right = await erase(person.token, person.password);
    expect(right.status).toBe(429);
    expect(right.body.message).toMatch(/Demasiados intentos/);
    // The same counters as sign-in: the account's sign-in from this address waits too.
    expect(
      (await stack.api.post('/auth/signIn', { email: person.email, password: person.password })).status,
    ).toBe(429);
    expect((await stack.api.get('/auth/currentUser', person.token)).status).toBe(200);
    check.pass();
  });

  it('still erases with the right password below the limit', async () => {
    const check = summary.case();
    const person = await patient('erasable');
    expect((await erase(person.token, 'mala')).status).toBe(401);
    expect((await erase(person.token, person.password)).status).toBe(200);
    check.pass();
  });
});
