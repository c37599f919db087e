/**
 * Safe out of the box: a gateway started with no HOST listens on loopback only, and the environment
 * `npm start` and `npm test` fill in signs sessions with this checkout's random secret, never with a
 * value published in the repository.
 */
import type { AddressInfo } from 'node:net';
import { infrastructure, TEST_VERIFIER_ENV } from '@crm/testing';
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
