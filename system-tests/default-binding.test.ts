/**
 * Safe out of the box: a gateway started with no HOST listens on loopback only, and the environment
 * `npm start` and `npm test` fill in signs sessions with this checkout's random secret, never with a
 * value published in the repository.
 */
import type { AddressInfo } from 'node:net';
import { infrastructure, TEST_JWT_SECRET } from '@crm/testing';
import { createLogger } from '@crm/server-kit';
import { loadGatewayConfig } from '../gateway/src/config';
import { startGateway } from '../gateway/src/start-gateway';
import { devEnvDefaults, withDevEnv } from '../scripts/lib/dev-env';
import { Summary } from './support/summary';

const summary = new Summary('default binding and secrets');
afterAll(() => summary.print());

describe('a default start', () => {
  it('binds the gateway to 127.0.0.1 unless HOST says otherwise', async () => {
    const check = summary.case();
    const infra = await infrastructure();
    const env = {
      JWT_SECRET: TEST_JWT_SECRET,
      REDIS_URL: infra.redisUrl,
      AMQP_URL: infra.amqpUrl,
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

  it('fills JWT_SECRET and MFA_ENCRYPTION_KEY with this checkout’s random secrets, no published value', () => {
    const check = summary.case();
    expect(devEnvDefaults().JWT_SECRET).toBeUndefined();
    const env = withDevEnv({}, { dotEnv: false });
    for (const name of ['JWT_SECRET', 'MFA_ENCRYPTION_KEY']) {
      expect(env[name]).toMatch(/^[A-Za-z0-9_-]{64}$/);
      expect(env[name]).not.toMatch(/^dev-only-/);
    }
    // The same values every time for one checkout: sessions survive a restart of `npm start`.
    expect(withDevEnv({}, { dotEnv: false }).JWT_SECRET).toBe(env.JWT_SECRET);
    check.pass();
  });
});
