import { execFileSync } from 'node:child_process';
import { startStack, uniqueEmail, type Stack } from '../../../test-support/stack';

/** Fault tests stop shared infrastructure, so `npm test` runs them on their own, one at a time. */
const rabbit = (command: 'stop_app' | 'start_app') =>
  execFileSync('rabbitmqctl', [command], { stdio: 'ignore' });

let stack: Stack;
beforeAll(async () => {
  stack = await startStack();
});
afterAll(async () => {
  rabbit('start_app');
  await stack?.stop();
});

it('accepts a sign-up while RabbitMQ is down and sends its e-mail exactly once when it is back', async () => {
  const email = uniqueEmail('outage');
  rabbit('stop_app');
  try {
    const signUp = await stack.api.post('/auth/signUp', {
      name: 'Marta Ruiz',
      phone: '699123456',
      email,
      password: 'contraseña-segura',
    });
    expect(signUp.status).toBe(201);
    expect(await stack.auth.models.User.countDocuments({ email, 'outbox.0': { $exists: true } })).toBe(1);
  } finally {
    rabbit('start_app');
  }
  const [mail] = await stack.mail.waitForMessagesTo(email, 1, 60000);
  expect(mail.Subject).toBe('Confirme su cuenta');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(await stack.mail.messagesTo(email)).toHaveLength(1);
  expect(await stack.auth.models.User.countDocuments({ email, 'outbox.0': { $exists: true } })).toBe(0);
}, 120000);
