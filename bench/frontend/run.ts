/**
 * Front-end benchmark (`npm run bench:frontend`).
 *
 * 1. JavaScript downloaded by "/": a fresh Debian Chromium loads the page (and stays until the
 *    network is idle, so the lazily loaded cookie banner counts too); every script's size is summed
 *    raw (decoded) and gzip-compressed as the gateway serves it (`Accept-Encoding: gzip`).
 *    Target: at most 150 KB of gzipped JavaScript.
 * 2. Each main route on a throttled slow mobile connection (slow-network.ts: 400 ms round trip,
 *    400 kbit/s, through the DevTools protocol): first paint, time until the route's main content is
 *    laid out, bytes, requests and the longest request chain. Targets: "/" first paint <= 2 s,
 *    "/dates" calendar <= 3.5 s, chain depth <= 4.
 * 3. Lighthouse 12 with its default mobile settings (Moto G Power emulation, simulated slow 4G and
 *    4x CPU slowdown) on Debian Chromium through chrome-launcher, for "/" and "/dates": performance
 *    (target >= 97, median of BENCH_RUNS), accessibility (>= 95) and best-practices scores; the last
 *    report of each route is kept in artifacts/lighthouse/.
 *
 * Against BENCH_URL when set (e.g. http://127.0.0.1:8080 with `npm start` running), else against the
 * in-process stack of the tests (the services and the gateway serving frontends/*\/dist, built
 * first when missing; infrastructure as for the tests). CHROMIUM_PATH overrides /usr/bin/chromium;
 * BENCH_RUNS (default 1) repeats the slow-network loads and Lighthouse and reports medians.
 * Exits with 1 when a target is missed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../e2e/support/browser';
import { BOOTSTRAP, createConfirmedPatient, startFullProduct, type Stack } from '../../e2e/support/product';
import { measureRoute, SLOW_MOBILE, type RouteCase, type RouteFigures } from './slow-network';

const ROOT = path.resolve(__dirname, '..', '..');
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 1));
const TARGETS = {
  gzipKb: 150,
  performance: 97,
  accessibility: 95,
  homeFirstPaintMs: 2000,
  calendarMs: 3500,
  /** "/login", "/signup" and the patient area "/user": patients sign in on phones. */
  accountMs: 2500,
  chainDepth: 4,
};
const LIGHTHOUSE_ROUTES = ['/', '/dates'];
const ACCOUNT_ROUTES = ['/login', '/signup', '/user'];
const REPORT_DIR = path.join(ROOT, 'artifacts', 'lighthouse');

interface ScriptSize {
  url: string;
  raw: number;
  gzip: number;
}

/** Bytes of a response as sent with `Accept-Encoding: gzip` (what a gzip-only client downloads). */
function gzipSize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

async function measureJavaScript(url: string): Promise<ScriptSize[]> {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-frontend-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 412, height: 823 },
  });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    const scripts = new Map<string, number>();
    page.on('response', (response) => {
      if (response.request().resourceType() !== 'script') return;
      void response
        .body()
        .then((body) => scripts.set(response.url(), body.length))
        .catch(() => undefined);
    });
    await page.goto(url, { waitUntil: 'networkidle' });
    await page.waitForTimeout(1500);
    const sizes: ScriptSize[] = [];
    for (const [scriptUrl, raw] of scripts)
      sizes.push({ url: scriptUrl, raw, gzip: await gzipSize(scriptUrl) });
    return sizes.sort((a, b) => b.gzip - a.gzip);
  } finally {
    await context.close();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

interface LighthouseScores {
  performance: number;
  accessibility: number;
  bestPractices: number;
  metrics: Record<string, string>;
  failed: string[];
  lcpElement: string;
}

interface LighthouseAudit {
  id: string;
  title: string;
  score: number | null;
  scoreDisplayMode: string;
  displayValue?: string;
  details?: { items?: Array<{ items?: Array<{ node?: { snippet?: string } }> }> };
}
interface LighthouseResult {
  lhr: {
    categories: Record<string, { score: number | null; auditRefs: Array<{ id: string; weight: number }> }>;
    audits: Record<string, LighthouseAudit>;
  };
}
type LighthouseFn = (url: string, flags: Record<string, unknown>) => Promise<LighthouseResult | undefined>;
interface ChromeLauncher {
  launch(options: {
    chromePath: string;
    chromeFlags: string[];
    userDataDir: string;
  }): Promise<{ port: number; kill(): Promise<void> | void }>;
}

// Both packages are ESM only; loaded at run time so this file stays CommonJS like the other benches.
const importEsm = (specifier: string): Promise<unknown> => import(specifier);

/** Lighthouse, run again (up to 3 attempts) when a run fails to measure at all. */
async function lighthouseWithRetries(url: string): Promise<LighthouseScores> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await runLighthouse(url);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.log(`  ${(error as Error).message}; trying again`);
    }
  }
}

async function runLighthouse(url: string): Promise<LighthouseScores> {
  const { default: lighthouse } = (await importEsm('lighthouse')) as { default: LighthouseFn };
  const launcher = (await importEsm('chrome-launcher')) as ChromeLauncher;
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-lighthouse-'));
  const chrome = await launcher.launch({
    chromePath: CHROMIUM_PATH,
    chromeFlags: CHROMIUM_ARGS,
    userDataDir: profile,
  });
  try {
    const result = await lighthouse(url, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility', 'best-practices'],
    });
    if (!result) throw new Error('lighthouse returned no result');
    // A run that could not measure (e.g. NO_FCP when the emulated device stalls) has no scores: it
    // is an error to report and retry, not a performance of 0.
    const runtimeError = (result.lhr as { runtimeError?: { code: string; message: string } }).runtimeError;
    if (runtimeError)
      throw new Error(`lighthouse could not measure ${url}: ${runtimeError.code} ${runtimeError.message}`);
    // The whole report of the last run of each route, to read what the scores come from.
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    const reportName = `lighthouse${new URL(url).pathname.replace(/\//g, '-').replace(/-$/, '') || '-home'}.json`;
    fs.writeFileSync(path.join(REPORT_DIR, reportName), JSON.stringify(result.lhr));
    const { categories, audits } = result.lhr;
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const metric = (id: string) => audits[id]?.displayValue ?? '-';
    const failed = ['accessibility', 'best-practices']
      .flatMap((id) => categories[id]?.auditRefs ?? [])
      .map((ref) => audits[ref.id])
      .filter((a) => a && a.scoreDisplayMode === 'binary' && a.score !== null && a.score < 1)
      .map((a) => `${a.id}: ${a.title}`);
    return {
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      metrics: {
        FCP: metric('first-contentful-paint'),
        LCP: metric('largest-contentful-paint'),
        TBT: metric('total-blocking-time'),
        CLS: metric('cumulative-layout-shift'),
        SI: metric('speed-index'),
      },
      failed,
      lcpElement:
        audits['largest-contentful-paint-element']?.details?.items?.[0]?.items?.[0]?.node?.snippet ?? '-',
    };
  } finally {
    await chrome.kill();
    fs.rmSync(profile, { recursive: true, force: true });
  }
}

/** Federation chunk names are long: keep what tells them apart ("…loadShare__react_mf_2_dom_mf_1_client…"). */
const shortName = (pathname: string) =>
  pathname
    .replace(/_virtual_mf___mfe_internal__shell__mf_owner__\d+__loadShare__/, 'shared:')
    .replace(/__loadShare__\.js-[\w-]+\.js$/, '');
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
const ms = (value: number) => `${(value / 1000).toFixed(2)} s`;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** A patient's session, for the patient area: a confirmed account without an appointment. */
async function benchPatientToken(stack: Stack): Promise<string> {
  const patient = await createConfirmedPatient(stack, 'Paciente Bench');
  return stack.signIn(patient.email, patient.password);
}

async function main(): Promise<number> {
  if (!fs.existsSync(CHROMIUM_PATH))
    throw new Error(`Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium)`);
  let stack: Stack | undefined;
  let base = process.env.BENCH_URL;
  let tokens: { doctor?: string; kiosk?: string; patient?: string } = {};
  if (!base) {
    for (const app of ['shell', 'backoffice', 'kiosk']) {
      const entry = app === 'shell' ? 'index.html' : 'remoteEntry.js';
      if (fs.existsSync(path.join(ROOT, 'frontends', app, 'dist', entry))) continue;
      console.log(`building ${app}…`);
      const build = spawnSync('npm', ['run', 'build', '-w', `@crm/${app}`], { cwd: ROOT, stdio: 'inherit' });
      if (build.status !== 0) throw new Error(`the ${app} build failed`);
    }
    stack = await startFullProduct(['backoffice', 'kiosk']);
    base = stack.gatewayUrl;
    tokens = {
      doctor: await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password),
      kiosk: await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password),
      patient: await benchPatientToken(stack),
    };
  } else {
    tokens = {
      doctor: process.env.BENCH_DOCTOR_TOKEN,
      kiosk: process.env.BENCH_KIOSK_TOKEN,
      patient: process.env.BENCH_PATIENT_TOKEN,
    };
  }
  const url = `${base.replace(/\/$/, '')}/`;
  try {
    console.log(`front-end benchmark of ${url}\n`);
    const scripts = await measureJavaScript(url);
    const raw = scripts.reduce((sum, s) => sum + s.raw, 0);
    const gzip = scripts.reduce((sum, s) => sum + s.gzip, 0);
    console.log(`JavaScript downloaded by "/": ${scripts.length} files, ${kb(raw)} raw, ${kb(gzip)} gzip`);
    for (const s of scripts) {
      console.log(
        `  ${kb(s.gzip).padStart(9)} gzip ${kb(s.raw).padStart(9)} raw  ${shortName(new URL(s.url).pathname)}`,
      );
    }

    const origin = base.replace(/\/$/, '');
    // Staff and kiosk routes need a session: measured only with a token (BENCH_URL without one skips them).
    const signedIn = (path: string, main: string, token: string | undefined): RouteCase[] =>
      token ? [{ path, main, token }] : [];
    const routes: RouteCase[] = [
      { path: '/', main: '.hero__title' },
      { path: '/dates', main: '.wk-calendar__grid button' },
      { path: '/login', main: 'form button[type="submit"]' },
      { path: '/signup', main: 'form button[type="submit"]' },
      ...signedIn('/user', '.appointment-card__actions, .appointment-card__empty', tokens.patient),
      ...signedIn('/doctor/appointments', 'table[aria-busy="false"]', tokens.doctor),
      ...signedIn('/onboarding', '.kiosk-title', tokens.kiosk),
    ];
    console.log(
      `\nslow mobile connection (${SLOW_MOBILE.latency} ms round trip, ${(SLOW_MOBILE.downloadThroughput * 8) / 1000} kbit/s), empty cache, ${RUNS} run${RUNS > 1 ? 's, median' : ''}:`,
    );
    console.log('| route                | first paint | main content | bytes     | requests | chain depth |');
    console.log('|----------------------|-------------|--------------|-----------|----------|-------------|');
    const figures: RouteFigures[] = [];
    for (const route of routes) {
      const attempts: RouteFigures[] = [];
      for (let i = 0; i < RUNS; i += 1) attempts.push(await measureRoute(origin, route));
      const typical = attempts.sort((a, b) => a.mainMs - b.mainMs)[Math.floor(attempts.length / 2)]!;
      figures.push(typical);
      console.log(
        `| ${route.path.padEnd(20)} | ${ms(typical.firstPaintMs).padStart(11)} | ${ms(typical.mainMs).padStart(12)} | ${kb(typical.bytes).padStart(9)} | ${String(typical.requests).padStart(8)} | ${String(typical.chainDepth).padStart(11)} |`,
      );
    }
    for (const f of figures) console.log(`  longest chain of ${f.path}: ${f.chain.join(' → ')}`);

    const lighthouse: Record<string, { performance: number; accessibility: number }> = {};
    for (const route of LIGHTHOUSE_ROUTES) {
      const runs: LighthouseScores[] = [];
      for (let i = 0; i < RUNS; i += 1) runs.push(await lighthouseWithRetries(`${origin}${route}`));
      const pick = (key: 'performance' | 'accessibility' | 'bestPractices') =>
        median(runs.map((r) => r[key]));
      lighthouse[route] = { performance: pick('performance'), accessibility: pick('accessibility') };
      const last = runs[runs.length - 1]!;
      console.log(`\nLighthouse 12, mobile, "${route}" (${RUNS} run${RUNS > 1 ? 's, median' : ''}):`);
      console.log(`  performance     ${pick('performance')}`);
      console.log(`  accessibility   ${pick('accessibility')}`);
      console.log(`  best-practices  ${pick('bestPractices')}`);
      console.log(
        `  metrics (last run): ${Object.entries(last.metrics)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')}`,
      );
      console.log(`  LCP element (last run): ${last.lcpElement.slice(0, 120)}`);
      if (last.failed.length > 0) console.log(`  failed audits: ${last.failed.join('; ')}`);
    }

    const home = figures.find((f) => f.path === '/');
    const calendar = figures.find((f) => f.path === '/dates');
    const misses = [
      gzip / 1024 > TARGETS.gzipKb ? `gzipped JS ${kb(gzip)} > ${TARGETS.gzipKb} KB` : '',
      ...Object.entries(lighthouse).flatMap(([route, scores]) => [
        scores.performance < TARGETS.performance
          ? `"${route}" performance ${scores.performance} < ${TARGETS.performance}`
          : '',
        scores.accessibility < TARGETS.accessibility
          ? `"${route}" accessibility ${scores.accessibility} < ${TARGETS.accessibility}`
          : '',
      ]),
      home && home.firstPaintMs > TARGETS.homeFirstPaintMs
        ? `"/" first paint ${ms(home.firstPaintMs)} > ${ms(TARGETS.homeFirstPaintMs)}`
        : '',
      calendar && calendar.mainMs > TARGETS.calendarMs
        ? `"/dates" calendar ${ms(calendar.mainMs)} > ${ms(TARGETS.calendarMs)}`
        : '',
      ...figures
        .filter((f) => ACCOUNT_ROUTES.includes(f.path) && f.mainMs > TARGETS.accountMs)
        .map((f) => `"${f.path}" main content ${ms(f.mainMs)} > ${ms(TARGETS.accountMs)}`),
      ...figures.map((f) =>
        f.chainDepth > TARGETS.chainDepth
          ? `"${f.path}" chain depth ${f.chainDepth} > ${TARGETS.chainDepth}`
          : '',
      ),
    ].filter(Boolean);
    console.log(
      `\ntargets: "/" <= ${TARGETS.gzipKb} KB gzipped JS; Lighthouse performance >= ${TARGETS.performance} and accessibility >= ${TARGETS.accessibility} for ${LIGHTHOUSE_ROUTES.join(', ')}; on the slow connection "/" first paint <= ${ms(TARGETS.homeFirstPaintMs)}, "/dates" calendar <= ${ms(TARGETS.calendarMs)}, ${ACCOUNT_ROUTES.join(', ')} main content <= ${ms(TARGETS.accountMs)}, chain depth <= ${TARGETS.chainDepth}`,
    );
    console.log(misses.length === 0 ? 'all targets met' : `MISSED: ${misses.join('; ')}`);
    return misses.length === 0 ? 0 : 1;
  } finally {
    await stack?.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
