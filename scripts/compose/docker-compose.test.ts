import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { PUBLISHED_PASSWORDS } from '../../services/auth/src/domain/password-policy';
import { CONFIG_LOADERS } from '../../test-support/config-loaders';
import { REPO_ROOT } from '../lib/paths';
import { LOCAL_IMAGES } from './local-images';
import { COMPOSE_SECRETS_DIR, makeSecrets } from './secrets-volume';

interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  depends_on?: Record<string, { condition: string }>;
}

const text = fs.readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8');
// `merge`: the services' environments are built with `<<: *app-env`, as compose reads them.
const compose = parse(text, { merge: true }) as { services: Record<string, ComposeService> };
const services = Object.entries(compose.services);
/** The gateway, every service and the e-mail worker: built from docker/node-app.Dockerfile. */
const apps = services.filter(([, service]) => service.build);
const SECRETS_MOUNT = `crm-secrets:${COMPOSE_SECRETS_DIR}:ro`;

describe('docker-compose.yml', () => {
  it('takes every image it pulls from a variable whose default is the official image (the local ones: npm run compose:images)', () => {
    const pulled = Object.fromEntries(
      services.filter(([, service]) => !service.build).map(([name, service]) => [name, service.image]),
    );
    expect(pulled).toEqual({
      secrets: '${REDIS_IMAGE:-redis:7}',
      mongo: '${MONGO_IMAGE:-mongo:7.0}',
      rabbitmq: '${RABBITMQ_IMAGE:-rabbitmq:4-management}',
      redis: '${REDIS_IMAGE:-redis:7}',
      mailpit: '${MAILPIT_IMAGE:-axllent/mailpit:v1.28.0}',
      jaeger: '${JAEGER_IMAGE:-jaegertracing/jaeger:2.13.0}',
    });
    for (const variable of Object.keys(LOCAL_IMAGES).filter((v) => v !== 'NODE_IMAGE'))
      expect(Object.values(pulled).join(' ')).toContain(`\${${variable}:-`);
    for (const [name, service] of apps) {
      const build = service.build as { args: Record<string, string> };
      expect([name, build.args.NODE_IMAGE]).toEqual([name, '${NODE_IMAGE:-node:22-bookworm-slim}']);
      expect(service.image).toBe(`crm/${name}:\${CRM_IMAGE_TAG:-dev}`);
    }
  });

  it('publishes no development secret and no published staff password', () => {
    expect(text).not.toMatch(/dev-only-/);
    for (const password of PUBLISHED_PASSWORDS)
      expect(text.toLowerCase()).not.toContain(password.toLowerCase());
  });

  it('gives every app its secrets as files of the secrets volume (<NAME>_FILE), never as values', () => {
    expect(apps.map(([name]) => name).sort()).toEqual(Object.keys(CONFIG_LOADERS).sort());
    for (const [name, service] of apps) {
      const env = service.environment ?? {};
      for (const secret of ['MONGO_URL', 'AMQP_URL', 'MFA_ENCRYPTION_KEY', 'BOOTSTRAP_ADMIN_PASSWORD'])
        expect([name, secret, env[secret]]).toEqual([name, secret, undefined]);
      expect(env.AMQP_URL_FILE).toBe(`${COMPOSE_SECRETS_DIR}/${name}/AMQP_URL`);
      if (name !== 'gateway') expect(env.MONGO_URL_FILE).toBe(`${COMPOSE_SECRETS_DIR}/${name}/MONGO_URL`);
      expect(service.volumes).toContain(SECRETS_MOUNT);
    }
    const auth = compose.services.auth!.environment!;
    expect(auth.MFA_ENCRYPTION_KEY_FILE).toBe(`${COMPOSE_SECRETS_DIR}/MFA_ENCRYPTION_KEY`);
    for (const role of ['ADMIN', 'DOCTOR', 'KIOSK'])
      expect(auth[`BOOTSTRAP_${role}_PASSWORD_FILE`]).toBe(
        `${COMPOSE_SECRETS_DIR}/BOOTSTRAP_${role}_PASSWORD`,
      );
  });

  it('starts the secrets service first, and MongoDB, RabbitMQ and every app only once it has succeeded', () => {
    const secrets = compose.services.secrets!;
    expect(secrets.image).toBe(compose.services.redis!.image); // no image of its own to pull
    expect(secrets.command).toEqual(['sh', '/etc/crm/secrets/make-secrets.sh']);
    expect(secrets.volumes).toEqual([
      `crm-secrets:${COMPOSE_SECRETS_DIR}`,
      './docker/secrets:/etc/crm/secrets:ro',
    ]);
    for (const [name, service] of [
      ...apps,
      ['mongo', compose.services.mongo!] as const,
      ['rabbitmq', compose.services.rabbitmq!] as const,
    ])
      expect([name, service.depends_on?.secrets]).toEqual([
        name,
        { condition: 'service_completed_successfully' },
      ]);
    expect(compose.services.mongo!.environment!.MONGO_INITDB_ROOT_PASSWORD_FILE).toBe(
      `${COMPOSE_SECRETS_DIR}/MONGO_ROOT_PASSWORD`,
    );
    expect(compose.services.rabbitmq!.environment!.CRM_SECRETS_DIR).toBe(COMPOSE_SECRETS_DIR);
  });

  it('points every <NAME>_FILE at a file the secrets service makes', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crm-secrets-')), 'volume');
    try {
      expect(makeSecrets(dir).status).toBe(0);
      const files = services.flatMap(([name, service]) =>
        Object.entries(service.environment ?? {})
          .filter(([key]) => key.endsWith('_FILE'))
          .map(([key, file]) => `${name} ${key} ${file}`),
      );
      expect(files.length).toBeGreaterThan(20);
      for (const entry of files) {
        const file = entry.split(' ')[2]!;
        expect([entry, file.startsWith(`${COMPOSE_SECRETS_DIR}/`)]).toEqual([entry, true]);
        expect([entry, fs.existsSync(path.join(dir, path.relative(COMPOSE_SECRETS_DIR, file)))]).toEqual([
          entry,
          true,
        ]);
      }
      // And every operator's value the script takes is passed to it, empty when unset.
      const secretsEnv = compose.services.secrets!.environment!;
      for (const name of fs.readdirSync(dir).filter((entry) => /^[A-Z_]+$/.test(entry)))
        expect([name, secretsEnv[name]]).toEqual([name, `\${${name}:-}`]);
    } finally {
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });

  it('gives every app what its own configuration loader needs to start on 0.0.0.0 (real secrets only)', () => {
    const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'crm-secrets-')), 'volume');
    try {
      expect(makeSecrets(dir).status).toBe(0);
      for (const [name, service] of apps) {
        // As compose hands it over with an empty .env: `${NAME:-default}` → default, and the volume here.
        const env = Object.fromEntries(
          Object.entries(service.environment ?? {}).map(([key, value]) => [
            key,
            String(value)
              .replace(/\$\{\w+(?::-([^}]*))?\}/g, (_match, fallback: string | undefined) => fallback ?? '')
              .replace(COMPOSE_SECRETS_DIR, dir),
          ]),
        );
        expect(env.HOST).toBe('0.0.0.0');
        const config = CONFIG_LOADERS[name]!(env);
        expect(config.AMQP_URL).toBe(fs.readFileSync(path.join(dir, name, 'AMQP_URL'), 'utf8').trimEnd());
        if (name === 'auth') {
          expect(config.MFA_ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9]{64}$/);
          expect(config.BOOTSTRAP_ADMIN_PASSWORD).toMatch(/^[A-Za-z0-9]{20}$/);
        }
      }
    } finally {
      fs.rmSync(path.dirname(dir), { recursive: true, force: true });
    }
  });
});
