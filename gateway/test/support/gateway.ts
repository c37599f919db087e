import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { eventually, listen, TEST_VERIFIER_ENV, uniqueName } from '@crm/testing';
import { createGateway, type Gateway, type GatewayOptions } from '../../src/app';
import { loadGatewayConfig } from '../../src/config';

export const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

export interface RunningGateway {
  url: string;
  gateway: Gateway;
  close: () => Promise<void>;
}

export function isReady(redis: Redis): boolean {
  return redis.status === 'ready';
}

/**
 * Starts a gateway in-process on an ephemeral port. Every gateway gets its own rate-limit namespace
 * in Redis, an empty FRONTENDS_DIR unless given one, and quiet logs.
 */
export async function startGateway(
  env: Record<string, string>,
  options: GatewayOptions = {},
): Promise<RunningGateway> {
  const config = loadGatewayConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    ...TEST_VERIFIER_ENV,
    REDIS_URL,
    RATE_LIMIT_REDIS_PREFIX: `${uniqueName('rl_gateway_test')}:`,
    RATE_LIMIT_MAX: '100000',
    RATE_LIMIT_AUTH_MAX: '100000',
    FRONTENDS_DIR: mkdtempSync(path.join(os.tmpdir(), 'gateway-frontends-')),
    ...env,
  });
  const gateway = createGateway(config, options);
  const server = await listen(gateway.listener);
  if (!options.redis) await eventually(() => isReady(gateway.redis), 5000, 'redis connection');
  return {
    url: server.url,
    gateway,
    close: async () => {
      await server.close();
      await gateway.close();
    },
  };
}
