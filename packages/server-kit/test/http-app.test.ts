import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { infrastructure, uniqueName } from '@crm/testing';
import { HTTP_MESSAGES } from '../src/errors';
import { createHttpApp } from '../src/http-app';
import { createLogger } from '../src/logger';
import { connectMongo, type MongoHandle } from '../src/service/mongo';

const logger = createLogger('server-kit-test', 'silent');

async function serve(mongo: MongoHandle): Promise<{ url: string; server: Server }> {
  const app = createHttpApp({
    logger,
    readiness: [{ name: 'database', check: mongo.isReady }],
    routes: (router) => {
      router.get('/things', async (_req, res) => {
        res.json(await mongo.connection.collection('things').find().toArray());
      });
      router.post('/things', (req, res) => {
        res.status(201).json(req.body);
      });
    },
  });
  const server = app.listen(0);
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describe('service app against a database that is down', () => {
  const mongo = connectMongo('mongodb://127.0.0.1:9', 'nowhere', logger);
  let http: { url: string; server: Server };
  beforeAll(async () => {
    http = await serve(mongo);
  });
  afterAll(async () => {
    http.server.close();
    await mongo.close();
  });

  it('answers 503 within 2 s instead of hanging', async () => {
    const started = Date.now();
    const response = await fetch(`${http.url}/things`);
    expect(response.status).toBe(503);
    expect(await response.json()).toEqual({ message: HTTP_MESSAGES.unavailable });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reports not ready but alive', async () => {
    expect((await fetch(`${http.url}/readyz`)).status).toBe(503);
    expect((await fetch(`${http.url}/healthz`)).status).toBe(200);
  });
});

describe('service app against a real database', () => {
  let mongo: MongoHandle;
  let http: { url: string; server: Server };
  beforeAll(async () => {
    const { mongoUrl } = await infrastructure();
    mongo = connectMongo(mongoUrl, uniqueName('serverkit'), logger);
    await mongo.ready;
    http = await serve(mongo);
  });
  afterAll(async () => {
    http.server.close();
    await mongo.connection.dropDatabase().catch(() => undefined);
    await mongo.close();
  });

  it('is ready and sets security headers without X-Powered-By', async () => {
    const response = await fetch(`${http.url}/readyz`);
    expect(response.status).toBe(200);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
    expect(response.headers.get('x-request-id')).toBeTruthy();
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const post = (body: string) =>
      fetch(`${http.url}/things`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const malformed = await post('{"name": ');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ message: HTTP_MESSAGES.malformedJson });
    const oversized = await post(JSON.stringify({ text: 'x'.repeat(200 * 1024) }));
    expect(oversized.status).toBe(413);
  });

  it('refuses operator injection in the body and the query', async () => {
    const body = await fetch(`${http.url}/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: { $ne: null } }),
    });
    expect(body.status).toBe(400);
    expect(((await body.json()) as { errors: Array<{ field: string }> }).errors[0].field).toBe('email');
  });

  it('answers unknown routes with a JSON 404', async () => {
    const response = await fetch(`${http.url}/nope`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: HTTP_MESSAGES.routeNotFound });
  });
});
