/**
 * How the product's files reach a browser, in real Chromium against the running product:
 * a visitor opens "/", follows "Reservar Cita" to the calendar, and a doctor opens the back office.
 * Every script and stylesheet arrives compressed with `Vary: Accept-Encoding`; files named by their
 * content are kept a year (`immutable`), while index.html, the remotes' remoteEntry.js and the logo
 * (copied from public/ under its own name) are revalidated; no file is downloaded twice (a preload
 * and the import it speeds up are one request); and the pages still work.
 */
import type { Page } from 'playwright-core';
import { browserOnProduct } from './support/browser-product';
import { BOOTSTRAP, startFullProduct, type Stack } from './support/product';

let stack: Stack;
let page: Page;

browserOnProduct(
  () => startFullProduct(['backoffice']),
  (started) => ({ stack, page } = started),
  { consent: false },
);

interface Seen {
  url: string;
  status: number;
  type: string;
  headers: Record<string, string>;
  /** False when a cache of the browser answered. */
  fromNetwork: boolean;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Vite's content-hashed output: `/assets/<name>-<8-character hash>.<ext>` (also under /mf/<remote>/). */
const HASHED = /^(?:\/mf\/\w+)?\/assets\/[^/]+-[\w-]{8}\.(?:js|css)$/;

/**
 * Every response of the page while `visit` runs, with its headers as the browser received them, from
 * the DevTools protocol: it also says which ones came from the browser's caches, not the network.
 */
async function responsesDuring(visit: () => Promise<void>): Promise<Seen[]> {
  const cdp = await page.context().newCDPSession(page);
  const seen = new Map<string, Seen>();
  const cached = new Set<string>();
  cdp.on('Network.requestServedFromCache', ({ requestId }) => cached.add(requestId));
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    const headers = Object.fromEntries(
      Object.entries(response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    const fromCache = response.fromDiskCache || response.fromPrefetchCache || response.fromServiceWorker;
    seen.set(requestId, {
      url: response.url,
      status: response.status,
      type: type.toLowerCase(),
      headers,
      fromNetwork: !fromCache,
    });
  });
  await cdp.send('Network.enable');
  try {
    await visit();
    await page.waitForLoadState('networkidle');
  } finally {
    await cdp.detach();
  }
  return [...seen].map(([requestId, s]) => ({ ...s, fromNetwork: s.fromNetwork && !cached.has(requestId) }));
}

const pathOf = (url: string) => new URL(url).pathname;
const files = (seen: Seen[]) => seen.filter((s) => !pathOf(s.url).startsWith('/api/'));
/** Files that came whole (200) more than once; a 304 answers a revalidation with no body. */
const downloadedTwice = (seen: Seen[]) => {
  const counts = new Map<string, number>();
  for (const s of files(seen).filter((f) => f.status === 200 && f.fromNetwork))
    counts.set(s.url, (counts.get(s.url) ?? 0) + 1);
  return [...counts]
    .filter(([, count]) => count > 1)
    .map(
      ([url]) =>
        `${url} (${seen
          .filter((s) => s.url === url)
          .map((s) => `${s.type} ${s.status}`)
          .join(', ')})`,
    );
};

let visitor: Seen[] = [];
let doctor: Seen[] = [];

beforeAll(async () => {
  visitor = await responsesDuring(async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    await page.locator('#hero-title').waitFor();
    await page.getByRole('link', { name: 'Reservar Cita' }).first().click();
    await page.locator('.wk-calendar__grid button').first().waitFor();
  });
  const token = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await page.evaluate((t) => localStorage.setItem('token', t), token);
  doctor = await responsesDuring(async () => {
    await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
    await page.locator('table[aria-busy="false"]').waitFor();
  });
}, 90_000);

it('shows the pages: the home page, the calendar and the back office’s list', () => {
  expect(visitor.find((s) => pathOf(s.url) === '/')?.status).toBe(200);
  expect(doctor.some((s) => pathOf(s.url) === '/mf/backoffice/remoteEntry.js' && s.status === 200)).toBe(
    true,
  );
});

it('sends every script and stylesheet compressed, saying it varies with Accept-Encoding', () => {
  // Bodies only: a 304 (the revalidation of a no-cache file) has none to compress.
  const code = files([...visitor, ...doctor]).filter(
    (s) => s.status === 200 && (s.type === 'script' || s.type === 'stylesheet'),
  );
  expect(code.length).toBeGreaterThan(5);
  // Below 1 KB compression saves less than its framing costs: such files may come as they are.
  const notCompressed = code.filter(
    (s) =>
      !['gzip', 'br'].includes(s.headers['content-encoding'] ?? '') &&
      !(Number(s.headers['content-length']) < 1024),
  );
  expect(notCompressed.map((s) => `${s.url} (${s.headers['content-length'] ?? 'chunked'})`)).toEqual([]);
  expect(code.filter((s) => s.headers['content-encoding']).length).toBeGreaterThan(5);
  const noVary = code.filter((s) => !/accept-encoding/i.test(s.headers.vary ?? ''));
  expect(noVary.map((s) => s.url)).toEqual([]);
});

it('keeps content-hashed files a year and revalidates index.html, remoteEntry.js and the logo', async () => {
  const seen = files([...visitor, ...doctor]).filter((s) => s.status === 200);
  const hashed = seen.filter((s) => HASHED.test(pathOf(s.url)));
  expect(hashed.length).toBeGreaterThan(5);
  expect(hashed.filter((s) => s.headers['cache-control'] !== IMMUTABLE).map((s) => s.url)).toEqual([]);

  const document = seen.find((s) => pathOf(s.url) === '/' && s.type === 'document');
  expect(document?.headers['cache-control']).toBe('no-cache');
  const remoteEntry = seen.find((s) => pathOf(s.url) === '/mf/backoffice/remoteEntry.js');
  expect(remoteEntry?.headers['cache-control']).toBe('no-cache');
  // The logo keeps its name across builds: the browser must ask whether it changed.
  const logo = await page.request.get(`${stack.gatewayUrl}/assets/images/logo.png`);
  expect(logo.status()).toBe(200);
  expect(logo.headers()['cache-control']).toBe('no-cache');
  const revalidated = await page.request.get(`${stack.gatewayUrl}/assets/images/logo.png`, {
    headers: { 'if-modified-since': logo.headers()['last-modified']! },
  });
  expect(revalidated.status()).toBe(304);
});

it('downloads no file twice (preloads are used, not fetched again)', () => {
  expect(downloadedTwice(visitor)).toEqual([]);
  expect(downloadedTwice(doctor)).toEqual([]);
});

it('starts no script before the first paint of "/" and "/dates", and asks for the centre profile once', async () => {
  await page.evaluate(() => localStorage.removeItem('token'));
  for (const path of ['/', '/dates']) {
    const seen = await responsesDuring(async () => {
      await page.goto(`${stack.gatewayUrl}${path}`);
      await page.locator('.layout:not([class*="prerender"]) .site-header').waitFor();
    });
    const profileRequests = seen.filter((s) => pathOf(s.url) === '/api/v1/config/centre');
    expect(profileRequests.map((s) => s.status)).toEqual([200]);
    const { firstPaint, scriptStarts } = await page.evaluate(() => ({
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
      scriptStarts: performance
        .getEntriesByType('resource')
        .filter((entry) => new URL(entry.name).pathname.endsWith('.js'))
        .map((entry) => entry.startTime),
    }));
    expect(scriptStarts.length).toBeGreaterThan(5);
    expect(Math.min(...scriptStarts)).toBeGreaterThanOrEqual(firstPaint);
  }
});
