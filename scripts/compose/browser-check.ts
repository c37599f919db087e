/**
 * The three front ends loaded in Chromium from the gateway container: the shell on `/`, the back
 * office remote on /doctor/appointments (signed in as the doctor) and the kiosk remote on
 * /onboarding (signed in as the kiosk), each from a first visit with no cookies. Module federation
 * across containers works when every /mf/ file answers 200 and the remote's own screen appears.
 */
import type { Page } from 'playwright-core';
import { appStarted, closeSharedChromium, launchBrowser } from '../../e2e/support/browser';

export interface BrowserCheck {
  screen: string;
  remoteFiles: number;
  ms: number;
}

/** Signs in on /login as a person does: the cookie banner answered, the form typed, the welcome closed. */
async function signIn(page: Page, gatewayUrl: string, email: string, password: string): Promise<void> {
  await page.goto(`${gatewayUrl}/login`);
  await page.locator('#cc-main .cm__btn[data-role="all"]').click();
  await page.getByLabel('Correo Electrónico').pressSequentially(email);
  await page.getByLabel('Contraseña', { exact: true }).pressSequentially(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await page.locator('.swal2-popup.swal2-show .swal2-confirm').click();
}

export async function frontendsLoad(
  gatewayUrl: string,
  staff: { doctor: { email: string; password: string }; kiosk: { email: string; password: string } },
): Promise<BrowserCheck[]> {
  const results: BrowserCheck[] = [];
  const visits: { screen: string; visit: (page: Page) => Promise<void> }[] = [
    {
      screen: 'shell (/)',
      visit: async (page) => {
        await page.goto(`${gatewayUrl}/`);
        await appStarted(page);
      },
    },
    {
      screen: 'back office (/doctor/appointments)',
      visit: async (page) => {
        await signIn(page, gatewayUrl, staff.doctor.email, staff.doctor.password);
        await page.waitForURL('**/doctor/appointments');
        await page.getByRole('heading', { name: 'Listado de Citas' }).waitFor();
      },
    },
    {
      screen: 'kiosk (/onboarding)',
      visit: async (page) => {
        await signIn(page, gatewayUrl, staff.kiosk.email, staff.kiosk.password);
        await page.waitForURL('**/onboarding');
        await page.getByRole('heading', { level: 1, name: 'Bienvenido', exact: true }).waitFor();
      },
    },
  ];
  try {
    for (const { screen, visit } of visits) {
      const browser = await launchBrowser();
      try {
        const page = await browser.newPage();
        const remote: { url: string; status: number }[] = [];
        page.on('response', (response) => {
          if (new URL(response.url()).pathname.startsWith('/mf/'))
            remote.push({ url: response.url(), status: response.status() });
        });
        const started = Date.now();
        await visit(page);
        const failed = remote.filter((r) => r.status >= 400);
        if (failed.length > 0)
          throw new Error(`${screen}: ${failed.map((r) => `${r.status} ${r.url}`).join(', ')}`);
        if (browser.errors.length > 0) throw new Error(`${screen}: ${browser.errors.join('; ')}`);
        results.push({ screen, remoteFiles: remote.length, ms: Date.now() - started });
      } finally {
        await browser.close();
      }
    }
  } finally {
    await closeSharedChromium();
  }
  return results;
}
