import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import vm from 'node:vm';
import { brokerPasswordVariable, BUS_PARTICIPANTS } from '@crm/contracts';
import { isPublishedPassword, newPasswordField } from '../../services/auth/src/domain/password-policy';
import { REPO_ROOT } from '../lib/paths';
import { makeSecrets, readSecret } from './secrets-volume';

/** The services with a database and a MongoDB user of their own (docker/mongo/init-service-users.js). */
const MONGO_SERVICES = BUS_PARTICIPANTS.filter((participant) => participant !== 'gateway');
const STAFF_PASSWORDS = ['BOOTSTRAP_ADMIN_PASSWORD', 'BOOTSTRAP_DOCTOR_PASSWORD', 'BOOTSTRAP_KIOSK_PASSWORD'];
const INFRA_PASSWORDS = [
  'MONGO_ROOT_PASSWORD',
  ...MONGO_SERVICES.map((service) => `MONGO_${service.toUpperCase()}_PASSWORD`),
  'RABBITMQ_PASSWORD',
  ...BUS_PARTICIPANTS.map(brokerPasswordVariable),
];
const URL_FILES = [
  ...MONGO_SERVICES.map((service) => `${service}/MONGO_URL`),
  ...BUS_PARTICIPANTS.map((participant) => `${participant}/AMQP_URL`),
];

const scratch: string[] = [];
function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  scratch.push(dir);
  return dir;
}
afterAll(() => scratch.forEach((dir) => fs.rmSync(dir, { recursive: true, force: true })));

/** A fresh volume: the script's first start into an empty directory. */
function firstStart(env: Record<string, string> = {}): string {
  const dir = path.join(tempDir('crm-secrets-'), 'volume');
  const run = makeSecrets(dir, env);
  if (run.status !== 0) throw new Error(`make-secrets.sh failed: ${run.stderr}`);
  return dir;
}

/** Every file below `dir`, relative to it. */
function filesBelow(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((entry) => fs.statSync(path.join(dir, entry)).isFile())
    .sort();
}

const valuesOf = (dir: string) =>
  Object.fromEntries(filesBelow(dir).map((name) => [name, readSecret(dir, name)]));

describe('docker compose secrets (docker/secrets/make-secrets.sh)', () => {
  it('makes every password, key and connection URL the containers read, at random, letters and digits only', () => {
    const dir = firstStart();
    const names = [...INFRA_PASSWORDS, 'MFA_ENCRYPTION_KEY', ...STAFF_PASSWORDS];
    expect(filesBelow(dir)).toEqual([...names, ...URL_FILES].sort());
    for (const name of INFRA_PASSWORDS) expect(readSecret(dir, name)).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(readSecret(dir, 'MFA_ENCRYPTION_KEY')).toMatch(/^[A-Za-z0-9]{64}$/);
    for (const name of STAFF_PASSWORDS) {
      const password = readSecret(dir, name);
      // The auth service's own rules, and more: at least 12 characters, upper, lower and a digit.
      expect(newPasswordField.safeParse(password).success).toBe(true);
      expect(isPublishedPassword(password)).toBe(false);
      expect(password).toMatch(/^(?=.*[A-Z])(?=.*[a-z])(?=.*\d)[A-Za-z0-9]{12,}$/);
    }
    const secrets = names.map((name) => readSecret(dir, name));
    expect(new Set(secrets).size).toBe(secrets.length);
    const another = firstStart();
    for (const name of names) expect(readSecret(another, name)).not.toBe(readSecret(dir, name));
  });

  it('gives each file to the user of the containers that read it, owner-only and read-only', () => {
    const dir = firstStart();
    const asRoot = process.getuid?.() === 0;
    for (const name of filesBelow(dir)) {
      const stat = fs.statSync(path.join(dir, name));
      expect([name, stat.mode & 0o777]).toEqual([name, 0o400]);
      // MongoDB and RabbitMQ run as uid 999 in their images, the node apps as 1000.
      if (asRoot) expect([name, stat.uid]).toEqual([name, INFRA_PASSWORDS.includes(name) ? 999 : 1000]);
    }
  });

  it('gives each deployable URLs with its own user and password, to the compose hosts', () => {
    const dir = firstStart();
    for (const service of MONGO_SERVICES) {
      const url = new URL(readSecret(dir, `${service}/MONGO_URL`));
      expect(url.protocol).toBe('mongodb:');
      expect([url.username, url.host, url.pathname, url.search]).toEqual([
        service,
        'mongo:27017',
        '/',
        `?authSource=${service}`,
      ]);
      expect(url.password).toBe(readSecret(dir, `MONGO_${service.toUpperCase()}_PASSWORD`));
    }
    for (const participant of BUS_PARTICIPANTS) {
      const url = new URL(readSecret(dir, `${participant}/AMQP_URL`));
      expect([url.protocol, url.username, url.host]).toEqual(['amqp:', participant, 'rabbitmq:5672']);
      expect(url.password).toBe(readSecret(dir, brokerPasswordVariable(participant)));
    }
  });

  it('keeps every value on later starts, whatever the environment says then, and derives the URLs again', () => {
    const dir = firstStart();
    const before = valuesOf(dir);
    const later = makeSecrets(dir, {
      RABBITMQ_AUTH_PASSWORD: 'changedLater',
      MFA_ENCRYPTION_KEY: 'changed-later-0123456789abcdefghijklmnop',
      COMPOSE_MONGO_HOST: 'db.internal:27018',
    });
    expect(later.status).toBe(0);
    expect(later.stdout).not.toMatch(/written/);
    const after = valuesOf(dir);
    for (const [name, value] of Object.entries(before)) {
      if (name.endsWith('/MONGO_URL'))
        expect(after[name]).toBe(value.replace('@mongo:27017/', '@db.internal:27018/'));
      else expect([name, after[name]]).toEqual([name, value]);
    }
  });

  it('writes the operator’s values instead of random ones, but never a published development value', () => {
    const dir = firstStart({
      RABBITMQ_AUTH_PASSWORD: 'operator.Auth_pass~1',
      MONGO_RECORDS_PASSWORD: 'operatorRecords1',
      MFA_ENCRYPTION_KEY: 'an operator key of forty characters, ok!',
      BOOTSTRAP_ADMIN_PASSWORD: 'Operator chose this 1',
      // `.env.example`'s values for npm start, in a .env copied from it:
      BOOTSTRAP_DOCTOR_PASSWORD: 'doctor1234!',
      MONGO_AUDIT_PASSWORD: 'dev-only-mongo-audit',
    });
    expect(readSecret(dir, 'RABBITMQ_AUTH_PASSWORD')).toBe('operator.Auth_pass~1');
    expect(new URL(readSecret(dir, 'auth/AMQP_URL')).password).toBe('operator.Auth_pass~1');
    expect(new URL(readSecret(dir, 'records/MONGO_URL')).password).toBe('operatorRecords1');
    expect(readSecret(dir, 'MFA_ENCRYPTION_KEY')).toBe('an operator key of forty characters, ok!');
    expect(readSecret(dir, 'BOOTSTRAP_ADMIN_PASSWORD')).toBe('Operator chose this 1');
    expect(readSecret(dir, 'BOOTSTRAP_DOCTOR_PASSWORD')).toMatch(/^[A-Za-z0-9]{20}$/);
    expect(readSecret(dir, 'MONGO_AUDIT_PASSWORD')).toMatch(/^[A-Za-z0-9]{32}$/);
  });

  it('refuses an operator’s database or broker password that cannot go into a URL', () => {
    const dir = path.join(tempDir('crm-secrets-'), 'volume');
    const run = makeSecrets(dir, { MONGO_AUTH_PASSWORD: 'p@ss/word' });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/MONGO_AUTH_PASSWORD may hold only letters, digits/);
    expect(fs.existsSync(path.join(dir, 'MONGO_AUTH_PASSWORD'))).toBe(false);
  });
});

/** docker/mongo/init-service-users.js as mongosh runs it, against a stand-in for the database. */
function createMongoUsers(env: Record<string, string | undefined>) {
  const created: { db: string; user: string; pwd: string; roles: unknown }[] = [];
  const db = {
    getSiblingDB: (name: string) => ({
      createUser: (user: { user: string; pwd: string; roles: unknown }) =>
        created.push({ db: name, ...user }),
    }),
  };
  const script = fs.readFileSync(path.join(REPO_ROOT, 'docker', 'mongo', 'init-service-users.js'), 'utf8');
  vm.runInNewContext(script, { db, print: () => undefined, require, process: { env } });
  return created;
}

describe('MongoDB’s first start (docker/mongo/init-service-users.js)', () => {
  it('creates each service’s user with the password of that service’s URL', () => {
    const dir = firstStart();
    const created = createMongoUsers({ CRM_SECRETS_DIR: dir });
    expect(created.map((user) => user.user).sort()).toEqual([...MONGO_SERVICES].sort());
    for (const user of created) {
      expect(user.db).toBe(user.user);
      expect(user.roles).toEqual([{ role: 'readWrite', db: user.user }]);
      expect(user.pwd).toBe(new URL(readSecret(dir, `${user.user}/MONGO_URL`)).password);
    }
  });

  it('prefers the environment, and stops when a password is nowhere', () => {
    const dir = firstStart();
    const created = createMongoUsers({ CRM_SECRETS_DIR: dir, MONGO_ROOMS_PASSWORD: 'fromTheEnvironment' });
    expect(created.find((user) => user.user === 'rooms')?.pwd).toBe('fromTheEnvironment');
    expect(() => createMongoUsers({ CRM_SECRETS_DIR: tempDir('empty-') })).toThrow(
      /MONGO_AUTH_PASSWORD is not set/,
    );
  });
});

const readIfThere = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);

/** docker/rabbitmq/boot.sh, writing below a scratch directory, with the image's entry point stubbed. */
function bootBroker(env: Record<string, string>) {
  const work = tempDir('crm-rabbitmq-');
  const conf = path.join(work, 'etc');
  fs.mkdirSync(path.join(conf, 'conf.d'), { recursive: true });
  const bin = path.join(work, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'docker-entrypoint.sh'), '#!/bin/sh\necho "started: $*"\n', {
    mode: 0o755,
  });
  const result = spawnSync('sh', [path.join(REPO_ROOT, 'docker', 'rabbitmq', 'boot.sh'), 'rabbitmq-server'], {
    env: { PATH: `${bin}:${process.env.PATH}`, CRM_RABBITMQ_CONF_DIR: conf, ...env },
    encoding: 'utf8',
    timeout: 30_000,
  });
  const rendered = path.join(conf, 'crm-definitions.json');
  const definitions = readIfThere(rendered);
  const users = definitions
    ? (JSON.parse(definitions) as { users: { name: string; password: string }[] }).users
    : [];
  return {
    ...result,
    passwords: Object.fromEntries(users.map((user) => [user.name, user.password])),
    loadConf: readIfThere(path.join(conf, 'conf.d', '20-crm-definitions.conf')),
    rendered,
  };
}

describe('RabbitMQ’s boot (docker/rabbitmq/boot.sh)', () => {
  it('compose: loads every user with the password of the secrets volume, then starts the server', () => {
    const dir = firstStart();
    const boot = bootBroker({ CRM_SECRETS_DIR: dir, RABBITMQ_USER: 'crm' });
    expect(boot.stderr).toBe('');
    expect(boot.status).toBe(0);
    expect(boot.stdout).toBe('started: rabbitmq-server\n');
    expect(boot.loadConf).toBe(`load_definitions = ${boot.rendered}\n`);
    expect(boot.passwords.crm).toBe(readSecret(dir, 'RABBITMQ_PASSWORD'));
    for (const participant of BUS_PARTICIPANTS)
      expect(boot.passwords[participant]).toBe(new URL(readSecret(dir, `${participant}/AMQP_URL`)).password);
  });

  it('Kubernetes: takes the environment first, and stops when a password is nowhere', () => {
    const dir = firstStart();
    const fromEnv = Object.fromEntries(BUS_PARTICIPANTS.map((p) => [brokerPasswordVariable(p), `env-${p}`]));
    const boot = bootBroker({ RABBITMQ_USER: 'ops', RABBITMQ_PASSWORD: 'ops-pass', ...fromEnv });
    expect(boot.status).toBe(0);
    expect(boot.passwords).toEqual({
      ops: 'ops-pass',
      ...Object.fromEntries(BUS_PARTICIPANTS.map((p) => [p, `env-${p}`])),
    });
    const mixed = bootBroker({
      CRM_SECRETS_DIR: dir,
      RABBITMQ_USER: 'crm',
      RABBITMQ_GATEWAY_PASSWORD: 'envGateway',
    });
    expect(mixed.passwords.gateway).toBe('envGateway');
    expect(mixed.passwords.records).toBe(readSecret(dir, 'RABBITMQ_RECORDS_PASSWORD'));
    const missing = bootBroker({ RABBITMQ_USER: 'crm' });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/boot\.sh: RABBITMQ_\w*PASSWORD is not set/);
  });
});
