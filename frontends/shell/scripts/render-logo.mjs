/**
 * Renders assets-src/logo.svg to public/assets/images/logo.png (128 px: 2x its 52 px display size;
 * transparent corners) with Debian's Chromium. Run again after editing the SVG:
 *   node frontends/shell/scripts/render-logo.mjs
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const svg = fs
  .readFileSync(path.join(here, '..', 'assets-src', 'logo.svg'), 'utf8')
  .replace('width="256" height="256"', 'width="128" height="128"');
const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'logo-profile-'));
const context = await chromium.launchPersistentContext(profile, {
  executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
  headless: true,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
  viewport: { width: 128, height: 128 },
});
const page = await context.newPage();
await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
const out = path.join(here, '..', 'public', 'assets', 'images', 'logo.png');
await page.locator('svg').screenshot({ path: out, omitBackground: true });
await context.close();
fs.rmSync(profile, { recursive: true, force: true });
console.log(`wrote ${out}`);
