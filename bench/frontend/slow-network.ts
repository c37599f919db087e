/**
 * Each main route loaded by a new visitor (empty cache) on a slow mobile connection, in Debian
 * Chromium with the network throttled through the DevTools protocol: time to first contentful
 * paint, time until the route's main content is on screen, bytes and requests until then, and the
 * depth of the request chain that led there (the document is 1, what it loads 2, what those load 3…).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type CDPSession } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/browser';

/** About 400 ms round trip and 400 kbit/s each way (a "slow mobile connection"). */
export const SLOW_MOBILE = {
  offline: false,
  latency: 400,
  downloadThroughput: 400_000 / 8,
  uploadThroughput: 400_000 / 8,
};

export interface RouteCase {
  path: string;
  /** What "the route's main content" is: the first element matching this selector, laid out. */
  main: string;
  /** A session token stored before the page loads (staff and kiosk routes). */
  token?: string;
}

export interface RouteFigures {
  path: string;
  firstPaintMs: number;
  mainMs: number;
  /** Bytes on the wire (compressed) of the requests finished when the main content showed. */
  bytes: number;
  requests: number;
  chainDepth: number;
  /** The longest chain, as file names. */
  chain: string[];
}

interface Request {
  url: string;
  /** The URL of what asked for it (document, script or stylesheet), if any. */
  parent?: string;
  finishedAt?: number;
  bytes: number;
}

interface Initiator {
  type: string;
  url?: string;
  stack?: { callFrames: Array<{ url: string }>; parent?: Initiator['stack'] };
}

function initiatorUrl(initiator: Initiator): string | undefined {
  if (initiator.url) return initiator.url;
  for (let stack = initiator.stack; stack; stack = stack.parent) {
    const frame = stack.callFrames.find((f) => f.url);
    if (frame) return frame.url;
  }
  return undefined;
}

/**
 * Records every request of the page with its initiator and size, through the DevTools protocol.
 * `finishedAt` is wall-clock epoch milliseconds (the protocol's monotonic clock shifted by the offset
 * its `wallTime` gives), comparable with the page's `performance.timeOrigin`.
 */
function recordRequests(cdp: CDPSession) {
  const requests = new Map<string, Request>();
  let wallOffsetMs: number | undefined;
  cdp.on('Network.requestWillBeSent', (event) => {
    wallOffsetMs ??= event.wallTime * 1000 - event.timestamp * 1000;
    if (event.request.url.startsWith('data:')) return;
    requests.set(event.requestId, {
      url: event.request.url,
      parent: initiatorUrl(event.initiator as Initiator),
      bytes: 0,
    });
  });
  cdp.on('Network.loadingFinished', (event) => {
    const request = requests.get(event.requestId);
    if (!request || wallOffsetMs === undefined) return;
    request.finishedAt = event.timestamp * 1000 + wallOffsetMs;
    request.bytes = event.encodedDataLength;
  });
  return requests;
}

/** The longest initiator chain among `requests`, from the document (depth 1) to the deepest request. */
function longestChain(requests: Request[], documentUrl: string): string[] {
  const byUrl = new Map(requests.map((r) => [r.url, r]));
  const chainOf = (request: Request, seen = new Set<string>()): string[] => {
    if (request.url === documentUrl || seen.has(request.url)) return [request.url];
    seen.add(request.url);
    const parent = request.parent ? byUrl.get(request.parent) : undefined;
    return [...(parent ? chainOf(parent, seen) : [documentUrl]), request.url];
  };
  return requests.map((r) => chainOf(r)).reduce((a, b) => (b.length > a.length ? b : a), [documentUrl]);
}

const fileName = (url: string) => {
  const { pathname } = new URL(url);
  return pathname === '/' ? '/' : (pathname.split('/').pop() ?? pathname).replace(/-[\w-]{8}\.js$/, '.js');
};

/** Loads `route` from `base` in a fresh profile on the slow connection and returns its figures. */
export async function measureRoute(base: string, route: RouteCase): Promise<RouteFigures> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-slow-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 412, height: 823 },
    isMobile: true,
    hasTouch: true,
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    // Page-side scripts are strings: this file is compiled without the DOM's types.
    await page.addInitScript(`(() => {
      const token = ${JSON.stringify(route.token ?? null)};
      if (token) localStorage.setItem('token', token);
      const look = () => {
        const element = document.querySelector(${JSON.stringify(route.main)});
        if (element && element.getBoundingClientRect().height > 0) window.__mainAt = performance.now();
        else requestAnimationFrame(look);
      };
      requestAnimationFrame(look);
    })()`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_MOBILE);
    const requests = recordRequests(cdp);
    const documentUrl = `${base}${route.path}`;
    await page.goto(documentUrl, { waitUntil: 'commit', timeout: 60_000 });
    // Polled from here: the page's CSP forbids the string evaluation waitForFunction would need.
    const deadline = Date.now() + 60_000;
    const shown =
      "window.__mainAt !== undefined && performance.getEntriesByName('first-contentful-paint').length > 0";
    while (!(await page.evaluate(shown))) {
      if (Date.now() > deadline)
        throw new Error(`${route.path}: "${route.main}" or a first paint not within 60 s`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const timing = (await page.evaluate(`({
      origin: performance.timeOrigin,
      main: window.__mainAt,
      firstPaint: performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN,
    })`)) as { origin: number; main: number; firstPaint: number };
    const mainAt = timing.origin + timing.main;
    const finishedBefore = [...requests.values()].filter(
      (r) => r.finishedAt !== undefined && r.finishedAt <= mainAt,
    );
    const chain = longestChain(finishedBefore, documentUrl);
    return {
      path: route.path,
      firstPaintMs: timing.firstPaint,
      mainMs: timing.main,
      bytes: finishedBefore.reduce((sum, r) => sum + r.bytes, 0),
      requests: finishedBefore.length,
      chainDepth: chain.length,
      chain: chain.map(fileName),
    };
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}
