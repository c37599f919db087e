import type { Page } from 'playwright-core';
import { launchBrowser, DESKTOP, type Browser } from './browser';
import { acceptCookies } from './dialogs';
import type { Stack } from './product';

export interface BrowserOnProduct<S extends Stack = Stack> {
  stack: S;
  browser: Browser;
  page: Page;
}

export interface BrowserOptions {
  /** The page's size (DESKTOP unless given). */
  viewport?: { width: number; height: number };
  /** Open the home page and accept the cookie banner first (true unless the file tests the banner). */
  consent?: boolean;
}

/**
 * The usual set-up of a browser test file: the product started by `start`, a fresh browser with
 * one page at `viewport`, on the home page with the cookie banner accepted unless `consent` is false
 * (beforeAll), both stopped after the file (afterAll). `ready` receives them for the file's own
 * variables; a file's own seeding goes in a beforeAll of its own, which runs after this one.
 */
export function browserOnProduct<S extends Stack>(
  start: () => Promise<S>,
  ready: (started: BrowserOnProduct<S>) => void,
  { viewport = DESKTOP, consent = true }: BrowserOptions = {},
): void {
  let started: Partial<BrowserOnProduct<S>> = {};
  beforeAll(async () => {
    const stack = await start();
    started = { stack };
    const browser = await launchBrowser();
    started.browser = browser;
    const page = await browser.newPage(viewport);
    if (consent) {
      await page.goto(`${stack.gatewayUrl}/`);
      await acceptCookies(page);
    }
    ready({ stack, browser, page });
  }, 60000);
  afterAll(async () => {
    await started.browser?.close();
    await started.stack?.stop();
  });
}
