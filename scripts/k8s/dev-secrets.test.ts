import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { brokerPasswordVariable, BUS_PARTICIPANTS } from '@crm/contracts';
import { isPublishedPassword, newPasswordField } from '../../services/auth/src/domain/password-policy';
import { readDotEnv } from '../lib/dev-env';
import { REPO_ROOT } from '../lib/paths';
import { DEV_SECRETS_DIR, ensureDevSecrets } from './dev-secrets';

const OVERLAY = path.join(REPO_ROOT, 'deploy', 'k8s', 'overlays', 'dev');

let dir: string;
beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'k8s-dev-secrets-'))));
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const envFile = (name: string) => readDotEnv(path.join(dir, name));
const everything = () => Object.fromEntries(fs.readdirSync(dir).map((name) => [name, envFile(name)]));

describe('the development overlay’s secrets (scripts/k8s/dev-secrets.ts)', () => {
  it('are random, letters and digits, owner-only, and the staff passwords pass the auth service’s rules', () => {
    ensureDevSecrets(dir);
    const users = envFile('rabbitmq-users.env');
    expect(Object.keys(users).sort()).toEqual(
      ['RABBITMQ_PASSWORD', ...BUS_PARTICIPANTS.map(brokerPasswordVariable)].sort(),
    );
    for (const value of Object.values(users)) expect(value).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(new Set(Object.values(users)).size).toBe(Object.keys(users).length);
    expect(envFile('auth-mfa.env').MFA_ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9]{64}$/);
    const staff = envFile('auth-bootstrap.env');
    expect(Object.keys(staff)).toEqual([
      'BOOTSTRAP_ADMIN_PASSWORD',
      'BOOTSTRAP_DOCTOR_PASSWORD',
      'BOOTSTRAP_KIOSK_PASSWORD',
    ]);
    for (const password of Object.values(staff)) {
      expect(newPasswordField.safeParse(password).success).toBe(true);
      expect(isPublishedPassword(password)).toBe(false);
      expect(password).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)[A-Za-z0-9]{12,}$/);
    }
    for (const name of fs.readdirSync(dir)) expect(fs.statSync(path.join(dir, name)).mode & 0o077).toBe(0);
  });

  it('give each deployable an AMQP_URL with its own user and the broker’s password for it', () => {
    ensureDevSecrets(dir);
    const users = envFile('rabbitmq-users.env');
    for (const participant of BUS_PARTICIPANTS) {
      const url = new URL(envFile(`${participant}-bus.env`).AMQP_URL!);
      expect([url.protocol, url.username, url.host]).toEqual(['amqp:', participant, 'rabbitmq:5672']);
      expect(url.password).toBe(users[brokerPasswordVariable(participant)]);
    }
  });

  it('are kept on later runs; a missing value is added and the URLs follow the passwords', () => {
    expect(ensureDevSecrets(dir).length).toBe(fs.readdirSync(dir).length);
    const first = everything();
    expect(ensureDevSecrets(dir)).toEqual([]);
    expect(everything()).toEqual(first);
    // A new deployable (or a password removed by hand to rotate it): only that one changes.
    const usersFile = path.join(dir, 'rabbitmq-users.env');
    fs.writeFileSync(
      usersFile,
      fs.readFileSync(usersFile, 'utf8').replace(/^RABBITMQ_RECORDS_PASSWORD=.*\n/m, ''),
    );
    expect(
      ensureDevSecrets(dir)
        .map((file) => path.basename(file))
        .sort(),
    ).toEqual(['rabbitmq-users.env', 'records-bus.env']);
    const after = everything();
    expect(after['rabbitmq-users.env']!.RABBITMQ_RECORDS_PASSWORD).not.toBe(
      first['rabbitmq-users.env']!.RABBITMQ_RECORDS_PASSWORD,
    );
    expect(after['auth-bus.env']).toEqual(first['auth-bus.env']);
    expect(after['auth-bootstrap.env']).toEqual(first['auth-bootstrap.env']);
  });

  it('are every file the overlay reads, and git ignores them', () => {
    ensureDevSecrets(dir);
    const overlay = parse(fs.readFileSync(path.join(OVERLAY, 'kustomization.yaml'), 'utf8')) as {
      secretGenerator: { envs?: string[] }[];
    };
    const read = overlay.secretGenerator.flatMap((generator) => generator.envs ?? []);
    expect(read.sort()).toEqual(
      fs
        .readdirSync(dir)
        .map((name) => `secrets/${name}`)
        .sort(),
    );
    expect(path.join(OVERLAY, 'secrets')).toBe(DEV_SECRETS_DIR);
    const ignored = spawnSync(
      'git',
      ['check-ignore', '-q', path.join(DEV_SECRETS_DIR, 'auth-bootstrap.env')],
      {
        cwd: REPO_ROOT,
      },
    );
    expect(ignored.status).toBe(0);
  });
});
