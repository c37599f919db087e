import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type RunningServer } from '@crm/testing';
import { isHashedAsset } from '../src/static-frontends';
import { startGateway, type RunningGateway } from './support/gateway';
import { rawRequest, startEchoUpstream } from './support/upstreams';

const ROUTE_FLAG = "document.documentElement.setAttribute('data-route', 'app');";
const SHELL_INDEX = `<!doctype html><html><head><title>shell</title><script>${ROUTE_FLAG}</script><script type="module" src="/assets/index-3f2a1b.js"></script></head><body><div id="root"></div></body></html>`;
const BIG_SCRIPT = `console.log(${JSON.stringify('a fairly repetitive bundle '.repeat(400))});`;

/** A fake build of the shell and the kiosk remote; the backoffice is "not built yet". */
function fakeFrontends(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'gateway-frontends-'));
  const file = (relative: string, content: string) => {
    mkdirSync(path.dirname(path.join(dir, relative)), { recursive: true });
    writeFileSync(path.join(dir, relative), content);
  };
  file('shell/dist/index.html', SHELL_INDEX);
  file('shell/dist/assets/index-3f2a1b.js', BIG_SCRIPT);
  file('shell/dist/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>');
  // Copied from public/ as it is: in assets/, but not named by its content.
  file('shell/dist/assets/images/logo.png', 'not really a png');
  file('kiosk/dist/remoteEntry.js', 'export const kiosk = 1;');
  file('kiosk/dist/assets/routes-9c8d7e.js', 'export default 1;');
  return dir;
}

const html = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let rooms: RunningServer;
let gw: RunningGateway;

beforeAll(async () => {
  rooms = await startEchoUpstream('rooms');
  gw = await startGateway({ FRONTENDS_DIR: fakeFrontends(), ROOMS_SERVICE_URL: rooms.url });
});

afterAll(async () => {
  await gw.close();
  await rooms.close();
});

describe('shell and SPA fallback', () => {
  it('serves the shell at / with no-cache', async () => {
    const res = await fetch(`${gw.url}/`, { headers: html });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toBe(SHELL_INDEX);
  });

  it.each(['/faqs', '/doctor/patients/42', '/onboarding'])(
    'answers the deep link %s with the shell’s index.html',
    async (route) => {
      const res = await fetch(gw.url + route, { headers: html });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(await res.text()).toBe(SHELL_INDEX);
    },
  );

  it('does not fall back for requests that do not want HTML, are not GET, or name a file', async () => {
    expect((await fetch(`${gw.url}/faqs`, { headers: { accept: 'application/json' } })).status).toBe(404);
    expect((await fetch(`${gw.url}/faqs`, { method: 'POST', headers: html })).status).toBe(404);
    const missingAsset = await fetch(`${gw.url}/assets/x.js`, { headers: html });
    expect(missingAsset.status).toBe(404);
    expect(await missingAsset.text()).not.toContain('<div id="root">');
  });

  it('lets the inline scripts of index.html run, and no other inline script anywhere', async () => {
    const hash = `'sha256-${createHash('sha256').update(ROUTE_FLAG).digest('base64')}'`;
    for (const route of ['/', '/dates', '/index.html']) {
      const res = await fetch(gw.url + route, { headers: html });
      expect(res.status).toBe(200);
      const policy = res.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(new RegExp(`(^|;)script-src 'self' ${hash}(;|$)`));
      expect(policy).toContain("script-src-attr 'none'");
    }
    const asset = await fetch(`${gw.url}/assets/index-3f2a1b.js`);
    expect(asset.headers.get('content-security-policy')).toMatch(/(^|;)script-src 'self'(;|$)/);
    const api = await fetch(`${gw.url}/api/v1/rooms`);
    expect(api.headers.get('content-security-policy')).not.toContain('sha256');
  });

  it('answers a repeated visit to index.html with 304 when it has not changed', async () => {
    const first = await fetch(`${gw.url}/faqs`, { headers: html });
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    // A browser's revalidation (fetch() would add Cache-Control: no-cache to a conditional request).
    const again = await rawRequest(gw.url, { path: '/faqs', headers: { ...html, 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect(again.text).toBe('');
  });

  it('caches hashed assets for a year and revalidates other files', async () => {
    const asset = await fetch(`${gw.url}/assets/index-3f2a1b.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const icon = await fetch(`${gw.url}/favicon.svg`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('cache-control')).toBe('no-cache');
    const logo = await fetch(`${gw.url}/assets/images/logo.png`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('cache-control')).toBe('no-cache');
  });

  it('tells content-hashed file names from names kept across builds', () => {
    expect(isHashedAsset('assets/BookingPage-BS-Cgop_.js')).toBe(true);
    expect(isHashedAsset('assets/index-D95o5U0f.css')).toBe(true);
    expect(isHashedAsset('assets/images/logo.png')).toBe(false);
    expect(isHashedAsset('assets/logo.png')).toBe(false);
    expect(isHashedAsset('remoteEntry-CJxGFW3K.js')).toBe(false);
    expect(isHashedAsset('index.html')).toBe(false);
  });

  it.each(['br', 'gzip'])('compresses static assets with %s', async (encoding) => {
    const res = await rawRequest(gw.url, {
      path: '/assets/index-3f2a1b.js',
      headers: { 'accept-encoding': encoding },
    });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(encoding);
  });
});

describe('federated remotes under /mf/', () => {
  it('serves a built remote’s files', async () => {
    const entry = await fetch(`${gw.url}/mf/kiosk/remoteEntry.js`);
    expect(entry.status).toBe(200);
    expect(entry.headers.get('cache-control')).toBe('no-cache');
    const chunk = await fetch(`${gw.url}/mf/kiosk/assets/routes-9c8d7e.js`);
    expect(chunk.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers 404, never index.html, for a missing file or route under /mf/', async () => {
    expect((await fetch(`${gw.url}/mf/kiosk/missing.js`, { headers: html })).status).toBe(404);
    expect((await fetch(`${gw.url}/mf/kiosk/some/route`, { headers: html })).status).toBe(404);
    expect((await fetch(`${gw.url}/mf/unknown/remoteEntry.js`)).status).toBe(404);
  });

  it('answers 404 for a remote that is not built, without crashing', async () => {
    expect((await fetch(`${gw.url}/mf/backoffice/remoteEntry.js`)).status).toBe(404);
    expect((await fetch(`${gw.url}/healthz`)).status).toBe(200);
  });
});

describe('before the frontends are built', () => {
  it('answers app routes with a plain 503 message and files with 404, and the API still works', async () => {
    const bare = await startGateway({ ROOMS_SERVICE_URL: rooms.url });
    try {
      const page = await fetch(`${bare.url}/faqs`, { headers: html });
      expect(page.status).toBe(503);
      expect(page.headers.get('content-type')).toMatch(/text\/plain/);
      expect((await fetch(`${bare.url}/`, { headers: html })).status).toBe(503);
      expect((await fetch(`${bare.url}/assets/app.js`)).status).toBe(404);
      expect((await fetch(`${bare.url}/api/v1/rooms`)).status).toBe(200);
    } finally {
      await bare.close();
    }
  });
});

describe('security headers', () => {
  it.each([
    ['a page', '/faqs'],
    ['an API answer', '/api/v1/dates'],
    ['a gateway 404', '/api/v1/nothing'],
  ])('sends CSP and nosniff and no X-Powered-By on %s', async (_what, route) => {
    const res = await fetch(gw.url + route, { headers: html });
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("img-src 'self' data:");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('sends HSTS only behind https (a trusted proxy saying X-Forwarded-Proto: https)', async () => {
    const behindTls = await startGateway({ TRUST_PROXY_HOPS: '1' });
    try {
      const viaHttps = await fetch(`${behindTls.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
      expect(viaHttps.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      const viaHttp = await fetch(`${behindTls.url}/healthz`, { headers: { 'x-forwarded-proto': 'http' } });
      expect(viaHttp.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await behindTls.close();
    }
    // Without a trusted proxy the header is the client's claim and is ignored.
    const spoofed = await fetch(`${gw.url}/healthz`, { headers: { 'x-forwarded-proto': 'https' } });
    expect(spoofed.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('CORS', () => {
  it('sends no CORS headers by default (same origin needs none)', async () => {
    const res = await fetch(`${gw.url}/api/v1/rooms`, { headers: { origin: 'https://elsewhere.example' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows only the listed origins, with credentials', async () => {
    const cors = await startGateway({
      ROOMS_SERVICE_URL: rooms.url,
      CORS_ORIGINS: 'https://admin.example, https://kiosk.example',
    });
    const preflight = (origin: string) =>
      fetch(`${cors.url}/api/v1/dates`, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'authorization,content-type',
        },
      });
    try {
      const allowed = await preflight('https://kiosk.example');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('https://kiosk.example');
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      expect(allowed.headers.get('access-control-allow-headers')).toMatch(/Authorization/);

      const refused = await preflight('https://evil.example');
      expect(refused.status).toBe(403);
      expect(refused.headers.get('access-control-allow-origin')).toBeNull();

      const simple = await fetch(`${cors.url}/api/v1/rooms`, {
        headers: { origin: 'https://admin.example' },
      });
      expect(simple.headers.get('access-control-allow-origin')).toBe('https://admin.example');
      expect(simple.headers.get('vary')).toMatch(/Origin/);
    } finally {
      await cors.close();
    }
  });
});
