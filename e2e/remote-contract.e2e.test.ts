/**
 * The host contract of the shell for the federated remotes (frontends/shell/README.md), checked with a
 * stand-in `backoffice` built from e2e/fixtures/remote: loaded only under /doctor/*, rendered with the
 * host's router (relative routes, links) and session (@crm/web-kit singleton), and no second React.
 * The kiosk remote is absent here: /onboarding degrades to a message instead of breaking the shell.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { startStack } from '../test-support/stack';
import { launchBrowser, REPO_ROOT, screenshot, DESKTOP, type Browser, appStarted } from './support/browser';
import { acceptCookies, answerDialog } from './support/dialogs';
import { BOOTSTRAP, type Stack } from './support/product';

/** The environment of a normal build: @module-federation/vite emits no remoteEntry.js inside jest. */
function buildEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production' };
  for (const key of Object.keys(env)) if (key.startsWith('JEST')) delete env[key];
  return env;
}

let stack: Stack;
let browser: Browser;
let page: Page;
let frontends: string;
const remoteRequests: string[] = [];

beforeAll(async () => {
  // A frontends directory with the real shell and the stand-in remote.
  frontends = fs.mkdtempSync(path.join(os.tmpdir(), 'crm-frontends-'));
  fs.symlinkSync(path.join(REPO_ROOT, 'frontends', 'shell'), path.join(frontends, 'shell'));
  const build = spawnSync(
    path.join(REPO_ROOT, 'node_modules', '.bin', 'vite'),
    ['build', '--config', path.join(__dirname, 'fixtures', 'remote', 'vite.config.mjs')],
    {
      cwd: REPO_ROOT,
      env: { ...buildEnv(), REMOTE_OUT_DIR: path.join(frontends, 'backoffice', 'dist') },
      encoding: 'utf8',
    },
  );
  if (build.status !== 0) throw new Error(`fixture remote build failed:\n${build.stdout}\n${build.stderr}`);
  stack = await startStack({ components: ['auth', 'appointments'], env: { FRONTENDS_DIR: frontends } });
  browser = await launchBrowser();
  page = await browser.newPage(DESKTOP);
  page.on('request', (request) => {
    if (request.url().includes('/mf/')) remoteRequests.push(new URL(request.url()).pathname);
  });
}, 90000);

afterAll(async () => {
  await browser?.close();
  await stack?.stop();
  if (frontends) fs.rmSync(frontends, { recursive: true, force: true });
});

it('does not download any remote on the public pages', async () => {
  await page.goto(`${stack.gatewayUrl}/`);
  await acceptCookies(page);
  await page.goto(`${stack.gatewayUrl}/dates`);
  await appStarted(page);
  await page.waitForLoadState('networkidle');
  expect(remoteRequests).toEqual([]);
});

it('renders the remote under /doctor/* with the host session and router', async () => {
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(BOOTSTRAP.admin.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(BOOTSTRAP.admin.password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await answerDialog(page);
  await page.waitForURL('**/doctor/appointments');
  const heading = page.getByTestId('remote');
  await heading.waitFor();
  expect(await heading.textContent()).toBe('remote appointments: loggedIn ADMIN /doctor/appointments');
  expect(remoteRequests).toContain('/mf/backoffice/remoteEntry.js');
  // React, the router and web-kit came from the host: the remote fetched none of its own copies.
  expect(
    remoteRequests.filter(
      (p) => /loadShare__react|react_mf|web-kit/.test(p) && !p.includes('localSharedImportMap'),
    ),
  ).toEqual([]);

  await page.getByRole('link', { name: 'Lista de Pacientes' }).click();
  await page.waitForURL('**/doctor/patients/list');
  expect(await heading.textContent()).toBe('remote patients: loggedIn ADMIN /doctor/patients/list');
  await screenshot(page, 'doctor-fixture-remote');
});

it('shows a message instead of a missing remote, and the site keeps working', async () => {
  await page.goto(`${stack.gatewayUrl}/signOut`);
  await answerDialog(page);
  await page.waitForURL(`${stack.gatewayUrl}/`);
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(BOOTSTRAP.kiosk.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(BOOTSTRAP.kiosk.password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await answerDialog(page);
  await page.waitForURL('**/onboarding');
  await page.getByRole('heading', { name: 'Esta sección no está disponible en este momento' }).waitFor();
  await page.getByRole('link', { name: 'Volver al inicio' }).click();
  await page
    .getByRole('heading', { level: 1, name: 'Su certificado médico oficial, en el día y sin esperas' })
    .waitFor();
});
