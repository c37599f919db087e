import { type RunningServer } from '@crm/testing';
import { startGateway } from './support/gateway';
import { closedPortUrl, startEchoUpstream } from './support/upstreams';

let auth: RunningServer;
let down: string;

beforeAll(async () => {
  auth = await startEchoUpstream('auth');
  down = await closedPortUrl();
});

afterAll(async () => {
  await auth.close();
});

const allDown = () => ({
  AUTH_SERVICE_URL: down,
  APPOINTMENTS_SERVICE_URL: down,
  RECORDS_SERVICE_URL: down,
  ROOMS_SERVICE_URL: down,
  CONFIG_SERVICE_URL: down,
  AUDIT_SERVICE_URL: down,
});

describe('health endpoints', () => {
  it('/healthz answers ok whatever the dependencies', async () => {
    const gw = await startGateway(allDown());
    try {
      const res = await fetch(`${gw.url}/healthz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ status: 'ok' });
    } finally {
      await gw.close();
    }
  });

  it('/readyz is ready while at least one upstream answers, and reports each upstream and Redis', async () => {
    const gw = await startGateway({ ...allDown(), AUTH_SERVICE_URL: auth.url });
    try {
      const res = await fetch(`${gw.url}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        status: 'ready',
        checks: {
          redis: 'up',
          upstreams: {
            auth: 'up',
            appointments: 'down',
            records: 'down',
            rooms: 'down',
            config: 'down',
            audit: 'down',
            reporting: 'down',
            payments: 'down',
          },
        },
      });
    } finally {
      await gw.close();
    }
  });

  it('/readyz is not ready when no upstream answers', async () => {
    const gw = await startGateway(allDown());
    try {
      const res = await fetch(`${gw.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'not ready', reason: 'no upstream reachable' });
    } finally {
      await gw.close();
    }
  });

  it('/readyz is not ready once the gateway starts shutting down', async () => {
    const gw = await startGateway({ ...allDown(), AUTH_SERVICE_URL: auth.url });
    try {
      gw.gateway.startDraining();
      const res = await fetch(`${gw.url}/readyz`);
      expect(res.status).toBe(503);
      expect(await res.json()).toMatchObject({ status: 'not ready', reason: 'shutting down' });
    } finally {
      await gw.close();
    }
  });
});
