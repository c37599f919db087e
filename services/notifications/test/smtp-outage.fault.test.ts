import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eventually, freePort, MailCatcher, outboxDrained } from '@crm/testing';
import { ensureMailpitBinary } from '../../../scripts/lib/go-tools';
import { startStack, uniqueEmail, type Stack } from '../../../test-support/stack';

/**
 * The e-mail worker must keep a message and retry while SMTP is down. The stack sends to an SMTP
 * port of this test's own where nothing listens at first (so the first attempts surely fail), and a
 * Mailpit of its own is started on that port later. Other tests keep the shared Mailpit throughout.
 */
let stack: Stack;
let smtpPort: number;
let mailpit: ChildProcess | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-smtp-outage-'));

beforeAll(async () => {
  smtpPort = await freePort();
  stack = await startStack({ env: { SMTP_URL: `smtp://127.0.0.1:${smtpPort}` } });
});
afterAll(async () => {
  await stack?.stop();
  if (mailpit && mailpit.exitCode === null) {
    const exited = new Promise((resolve) => mailpit!.once('exit', resolve));
    mailpit.kill('SIGTERM');
    await exited;
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function startMailpit(): Promise<MailCatcher> {
  const httpPort = await freePort();
  const binary = await ensureMailpitBinary(() => undefined);
  mailpit = spawn(
    binary,
    [
      '--smtp',
      `127.0.0.1:${smtpPort}`,
      '--listen',
      `127.0.0.1:${httpPort}`,
      '--smtp-auth-accept-any',
      '--smtp-auth-allow-insecure',
      '--database',
      path.join(dataDir, 'mailpit.db'),
      '--disable-version-check',
    ],
    { stdio: 'ignore' },
  );
  const catcher = new MailCatcher(`http://127.0.0.1:${httpPort}`);
  await eventually(
    () =>
      catcher
        .messagesTo('nobody@example.test')
        .then(() => true)
        .catch(() => undefined),
    30000,
  );
  return catcher;
}

it('retries while SMTP is down and sends the e-mail once when it is back', async () => {
  const email = uniqueEmail('smtp-outage');
  const signUp = await stack.api.post('/auth/signUp', {
    name: 'Julia Santana',
    phone: '622333444',
    email,
    password: 'contraseña-segura',
  });
  expect(signUp.status).toBe(201);
  // The event is published (outbox emptied) although the e-mail cannot be sent yet.
  await outboxDrained(stack.auth.models.User, { email }, 10000);
  await new Promise((resolve) => setTimeout(resolve, 1500)); // let the first delivery attempts fail

  const mail = await startMailpit();
  const [message] = await mail.waitForMessagesTo(email, 1, 60000);
  expect(message.Subject).toBe('Confirme su cuenta');
  await new Promise((resolve) => setTimeout(resolve, 3000));
  expect(await mail.messagesTo(email)).toHaveLength(1);
}, 120000);
