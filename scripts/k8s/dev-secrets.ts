/**
 * The development overlay's secrets (deploy/k8s/overlays/dev/secrets/*.env, ignored by git, read by
 * its secretGenerator): made at random the first time, kept afterwards, so that no development
 * cluster runs with a password published in this repository. Letters and digits only: they go into
 * URLs and into the broker's JSON definitions.
 *
 *   npm run k8s:dev-secrets     writes what is missing (npm run k8s:validate does it too)
 *
 * rabbitmq-users.env holds the broker's passwords; each `<deployable>-bus.env` (its AMQP_URL) is
 * derived from it at every run, so the two cannot disagree.
 */
import { randomInt } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { brokerPasswordVariable, BUS_PARTICIPANTS } from '@crm/contracts';
import { readDotEnv } from '../lib/dev-env';
import { REPO_ROOT, rel } from '../lib/paths';

export const DEV_SECRETS_DIR = path.join(REPO_ROOT, 'deploy', 'k8s', 'overlays', 'dev', 'secrets');
/** The broker inside the development namespace (overlays/dev/infrastructure.yaml). */
const BROKER = 'rabbitmq:5672';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export function randomAlphanumeric(length: number): string {
  let value = '';
  for (let i = 0; i < length; i++) value += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return value;
}

/** The auth service's password rules for staff, with room to spare: 20 characters, upper, lower, digit. */
export function staffPassword(): string {
  for (;;) {
    const candidate = randomAlphanumeric(20);
    if (/[A-Z]/.test(candidate) && /[a-z]/.test(candidate) && /\d/.test(candidate)) return candidate;
  }
}

const password = () => randomAlphanumeric(32);
const HEADER =
  '# Made by npm run k8s:dev-secrets for this checkout (development cluster only). Never commit.\n';

const render = (values: Record<string, string>) =>
  HEADER +
  Object.entries(values)
    .map(([key, value]) => `${key}=${value}\n`)
    .join('');

/**
 * Keeps the values `file` has and adds the missing ones. The first writer of a new file wins (two
 * processes rendering the overlay at once must not end up with two sets of passwords): the values
 * returned are those on disk.
 */
function keepSecrets(
  file: string,
  wanted: Record<string, () => string>,
  written: string[],
): Record<string, string> {
  const current = readDotEnv(file);
  if (Object.keys(wanted).every((key) => current[key])) return current;
  const values = Object.fromEntries(
    Object.entries(wanted).map(([key, make]) => [key, current[key] || make()]),
  );
  const scratch = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(scratch, render(values), { mode: 0o600 });
  try {
    if (fs.existsSync(file)) fs.renameSync(scratch, file);
    else fs.linkSync(scratch, file);
    written.push(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    fs.rmSync(scratch, { force: true });
  }
  return readDotEnv(file);
}

/** Writes `values` unless the file already says exactly that (atomically: readers never see half). */
function derive(file: string, values: Record<string, string>, written: string[]): void {
  const content = render(values);
  if (fs.existsSync(file) && fs.readFileSync(file, 'utf8') === content) return;
  const scratch = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(scratch, content, { mode: 0o600 });
  fs.renameSync(scratch, file);
  written.push(file);
}

/** Makes the overlay's missing secrets; returns the files written. */
export function ensureDevSecrets(dir: string = DEV_SECRETS_DIR): string[] {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const written: string[] = [];
  const users = keepSecrets(
    path.join(dir, 'rabbitmq-users.env'),
    {
      RABBITMQ_PASSWORD: password,
      ...Object.fromEntries(
        BUS_PARTICIPANTS.map((participant) => [brokerPasswordVariable(participant), password]),
      ),
    },
    written,
  );
  keepSecrets(path.join(dir, 'auth-mfa.env'), { MFA_ENCRYPTION_KEY: () => randomAlphanumeric(64) }, written);
  keepSecrets(
    path.join(dir, 'auth-bootstrap.env'),
    {
      BOOTSTRAP_ADMIN_PASSWORD: staffPassword,
      BOOTSTRAP_DOCTOR_PASSWORD: staffPassword,
      BOOTSTRAP_KIOSK_PASSWORD: staffPassword,
    },
    written,
  );
  for (const participant of BUS_PARTICIPANTS) {
    const url = `amqp://${participant}:${users[brokerPasswordVariable(participant)]}@${BROKER}`;
    derive(path.join(dir, `${participant}-bus.env`), { AMQP_URL: url }, written);
  }
  return written;
}

if (require.main === module) {
  const written = ensureDevSecrets();
  console.log(
    written.length === 0
      ? `k8s dev secrets: up to date in ${rel(DEV_SECRETS_DIR)}`
      : `k8s dev secrets: wrote ${written.map(rel).join(', ')}`,
  );
  console.log(
    `the first admin's password: BOOTSTRAP_ADMIN_PASSWORD in ${rel(path.join(DEV_SECRETS_DIR, 'auth-bootstrap.env'))}`,
  );
}
