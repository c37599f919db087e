import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser as ChromiumBrowser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (never a downloaded browser build). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const SCREENSHOT_DIR = path.join(REPO_ROOT, 'artifacts', 'screenshots');

export const DESKTOP = { width: 1280, height: 800 };
export const MOBILE = { width: 390, height: 844 };

export interface Browser {
  context: BrowserContext;
  /** Errors the pages logged (console.error, uncaught exceptions), for a final "no errors" check. */
  errors: string[];
  newPage(viewport?: { width: number; height: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * One Chromium per test file, started on first use and closed after the file: each "fresh browser"
 * is a new context of it, which starts with no cookies, no storage and no cache, as a first visit
 * does, for a third of the time and CPU of a whole new Chromium on a two-core machine.
 */
let chromiumOfFile: Promise<ChromiumBrowser> | undefined;

function sharedChromium(): Promise<ChromiumBrowser> {
  if (chromiumOfFile) return chromiumOfFile;
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM_PATH}: install Debian's package (apt-get install -y chromium)`,
    );
  }
  chromiumOfFile = chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_ARGS });
  return chromiumOfFile;
}

/** Closes the shared Chromium (after each jest file by itself; a script calls it when done). */
export async function closeSharedChromium(): Promise<void> {
  const started = chromiumOfFile;
  chromiumOfFile = undefined;
  await (await started?.catch(() => undefined))?.close();
}

if (typeof afterAll === 'function') afterAll(closeSharedChromium);

/** A fresh browser: a new context (no cookies, no storage) with the page errors it logs. */
export async function launchBrowser(): Promise<Browser> {
  const context = await (await sharedChromium()).newContext({ viewport: DESKTOP, locale: 'es-ES' });
  context.setDefaultTimeout(15000);
  const errors: string[] = [];
  context.on('page', (page) => {
    page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(`console.error: ${message.text()}`);
    });
  });
  return {
    context,
    errors,
    async newPage(viewport = DESKTOP) {
      const page = await context.newPage();
      await page.setViewportSize(viewport);
      return page;
    },
    // After the file, the shared Chromium may already be closed, and its contexts with it.
    close: async () => {
      if (context.browser()?.isConnected()) await context.close();
    },
  };
}

/** Saves a screenshot as artifacts/screenshots/<name>-<width>.png. */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const width = page.viewportSize()?.width ?? 0;
  const file = path.join(SCREENSHOT_DIR, `${name}-${width}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

/**
 * Waits until the shell app has replaced index.html's pre-rendered first screen ("/" and "/dates"
 * paint their heading before any JavaScript): only the app renders the main menu.
 */
export async function appStarted(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Principal', includeHidden: true })
    .waitFor({ state: 'attached' });
}
