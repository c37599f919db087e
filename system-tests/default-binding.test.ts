/**
 * Safe out of the box: a gateway started with no HOST listens on loopback only, and the environment
 * `npm start` and `npm test` fill in signs sessions with the machine's random secret, never with a
 * value published in the repository.
 */
import type { AddressInfo } from 'node:net';
import { infrastructure, TEST_VERIFIER_ENV } from '@crm/testing';
import { createLogger } from '@crm/server-kit';
import { loadGatewayConfig } from '../gateway/src/config';
import { loadAuthConfig } from '../services/auth/src/config';
import { startGateway } from '../gateway/src/start-gateway';
import { devEnvDefaults, withDevEnv } from '../scripts/lib/dev-env';
import { CONFIG_LOADERS } from '../test-support/config-loaders';
import { Summary } from './support/summary';

const summary = new Summary('default binding and secrets');
afterAll(() => summary.print());

describe('a default start', () => {
  it('binds the gateway to 127.0.0.1 unless HOST says otherwise', async () => {
    const check = summary.case();
    const infra = await infrastructure();
    const env = {
      ...TEST_VERIFIER_ENV,
      REDIS_URL: infra.redisUrl,
      AMQP_URL: infra.busUrls.gateway,
      PORT: '0',
    };
    const config = loadGatewayConfig(env);
    expect(config.HOST).toBe('127.0.0.1');
    expect(loadGatewayConfig({ ...env, HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');

    const running = await startGateway(config, { logger: createLogger('gateway', 'silent') });
    try {
      const address = running.server.address() as AddressInfo;
      summary.set('gateway bound to', address.address);
      expect(address.address).toBe('127.0.0.1');
      expect((await fetch(`${running.url}/healthz`)).status).toBe(200);
    } finally {
      await running.close();
    }
    check.pass();
  });

  it('fills the auth service’s at-rest key with this checkout’s random secret, and no token secret at all', () => {
    const check = summary.case();
    expect(devEnvDefaults().JWT_SECRET).toBeUndefined();
    const env = withDevEnv({}, { dotEnv: false });
    expect(env.MFA_ENCRYPTION_KEY).toMatch(/^[A-Za-z0-9_-]{64}$/);
    // Tokens are signed by the auth service alone, with keys it makes (sealed with that key).
    expect(env.JWT_SECRET).toBeUndefined();
    // The same value every time for one checkout: the keys sealed with it open after a restart.
    expect(withDevEnv({}, { dotEnv: false }).MFA_ENCRYPTION_KEY).toBe(env.MFA_ENCRYPTION_KEY);
    check.pass();
  });
});

const loaders = Object.entries(CONFIG_LOADERS);

/** What a container gets from its operator: real passwords, and it listens on every interface. */
const exposed = {
  NODE_ENV: 'development',
  HOST: '0.0.0.0',
  MONGO_URL: 'mongodb://svc:Vr7-unpublished@db:27017/?authSource=svc',
  AMQP_URL: 'amqp://svc:Vr7-unpublished@broker:5672',
  REDIS_URL: 'redis://cache:6379',
  MFA_ENCRYPTION_KEY: 'an-unpublished-at-rest-key-of-forty-characters',
  SMTP_URL: 'smtp://mail:1025',
  PUBLIC_URL: 'https://citas.example.org',
  REDSYS_URL: 'https://sis.redsys.es',
  REDSYS_MERCHANT_CODE: '999008881',
  REDSYS_TERMINAL: '1',
  REDSYS_SECRET_KEY: 'Jeyd6iBydGbWm6rJrQU2srB2mhVkk2wv',
};

describe('a deployable listening beyond loopback, whatever NODE_ENV says', () => {
  it.each(loaders)('%s starts with real secrets', (_name, load) => {
    expect(() => load(exposed)).not.toThrow();
  });

  it.each(loaders)('%s refuses a broker or database password published in the repository', (name, load) => {
    const check = summary.case();
    const published: Record<string, string> = {
      AMQP_URL: 'amqp://svc:dev-only-rabbitmq-svc@broker:5672',
      // The gateway has no database.
      ...(name === 'gateway'
        ? {}
        : { MONGO_URL: 'mongodb://svc:dev-only-mongo-svc@db:27017/?authSource=svc' }),
    };
    for (const [key, value] of Object.entries(published)) {
      const override = { [key]: value };
      expect(() => load({ ...exposed, ...override })).toThrow(
        new RegExp(`${key}: a development value is not allowed`),
      );
      // The same values on loopback: a laptop's development start.
      expect(() => load({ ...exposed, ...override, HOST: '127.0.0.1' })).not.toThrow();
      summary.add('refusals', 1);
    }
    check.pass();
  });

  it('auth refuses to start without its own at-rest key or with a published staff password', () => {
    const check = summary.case();
    const { MFA_ENCRYPTION_KEY: _key, ...withoutKey } = exposed;
    expect(() => loadAuthConfig(withoutKey)).toThrow(
      /MFA_ENCRYPTION_KEY: required when listening on 0\.0\.0\.0/,
    );
    expect(() =>
      loadAuthConfig({ ...exposed, MFA_ENCRYPTION_KEY: 'dev-only-mfa-encryption-key-not-for-production' }),
    ).toThrow(/MFA_ENCRYPTION_KEY: a development value/);
    for (const published of ['Admin1234!', 'admin1234!'])
      expect(() => loadAuthConfig({ ...exposed, BOOTSTRAP_ADMIN_PASSWORD: published })).toThrow(
        /BOOTSTRAP_ADMIN_PASSWORD: a published or common password/,
      );
    summary.add('refusals', 4);
    check.pass();
  });
});
