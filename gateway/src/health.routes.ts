import http from 'node:http';
import https from 'node:https';
import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { UpstreamName } from './proxy-table';
import { isRedisReady } from './redis-client';
import type { Upstream } from './upstream-proxy';

const PROBE_TIMEOUT_MS = 1000;

type Status = 'up' | 'down';

/** GET <upstream>/healthz through the upstream's keep-alive agent; any 2xx within the timeout is "up". */
export function probeUpstream(upstream: Upstream): Promise<Status> {
  return new Promise((resolve) => {
    const client = upstream.url.startsWith('https:') ? https : http;
    const req = client.get(
      `${upstream.url}/healthz`,
      { agent: upstream.agent, timeout: PROBE_TIMEOUT_MS },
      (res) => {
        res.resume();
        resolve(
          res.statusCode !== undefined && res.statusCode >= 200 && res.statusCode < 300 ? 'up' : 'down',
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve('down'));
  });
}

async function probeRedis(redis: Redis): Promise<Status> {
  if (!isRedisReady(redis)) return 'down';
  try {
    return (await redis.ping()) === 'PONG' ? 'up' : 'down';
  } catch {
    return 'down';
  }
}

/**
 * `/healthz`: the process is alive (no dependency is checked, so a probe never restarts a healthy
 * gateway because a service is down).
 * `/readyz`: the gateway is worth sending traffic to. It is NOT ready while shutting down, or when no
 * upstream at all answers its /healthz (then no API call can succeed). One service down does not make
 * it unready: the rest of the product and the frontends still work, and that service's routes answer
 * 503. Redis never decides readiness (the gateway works without it); its state is reported for
 * information with each upstream's.
 */
export function healthRoutes(deps: {
  upstreams: ReadonlyMap<UpstreamName, Upstream>;
  redis: Redis;
  isDraining: () => boolean;
}): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const list = [...deps.upstreams.values()];
    const [redis, ...states] = await Promise.all([probeRedis(deps.redis), ...list.map(probeUpstream)]);
    const upstreams = Object.fromEntries(list.map((u, i) => [u.name, states[i]]));
    const ready = !deps.isDraining() && states.some((s) => s === 'up');
    res.setHeader('Cache-Control', 'no-store');
    res.status(ready ? 200 : 503).json({
      status: ready ? 'ready' : 'not ready',
      ...(deps.isDraining() ? { reason: 'shutting down' } : ready ? {} : { reason: 'no upstream reachable' }),
      checks: { redis, upstreams },
    });
  });
  return router;
}
