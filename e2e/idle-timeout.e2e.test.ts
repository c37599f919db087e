/**
 * A staff session left alone ends (docs/product/rights-and-access-trail.md#sessions) (here after 8 s instead
 * of 15 minutes). The back office says so in a dialog and sends the person to sign in again; working in it
 * keeps the session open.
 */
import type { Page } from 'playwright-core';
import { signInThroughUi } from './support/session';
import { screenshot } from './support/browser';
import { answerDialog } from './support/dialogs';
import { browserOnProduct } from './support/browser-product';
import { BOOTSTRAP, startFullProduct, type Stack } from './support/product';

// Long enough that a slow page load while working never looks like idleness, short for a test.
const IDLE_MS = 8000;
let stack: Stack;
let page: Page;

browserOnProduct(
  () => startFullProduct(['backoffice'], { STAFF_IDLE_TIMEOUT_MINUTES: String(IDLE_MS / 60_000) }),
  (started) => ({ stack, page } = started),
);

it('keeps a doctor who keeps working signed in, and signs out one who left the screen alone', async () => {
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await page.waitForURL('**/doctor/**');
  const sidebar = page.getByRole('complementary', { name: 'Vista Administrativa' });
  // Working: a click every second for longer than the timeout.
  for (let i = 0; i < 12; i++) {
    await sidebar.getByRole('link', { name: i % 2 ? 'Citas' : 'Agenda de hoy' }).click();
    await page.waitForTimeout(1000);
  }
  await page
    .getByRole('heading', { name: /Agenda|Citas/ })
    .first()
    .waitFor();

  // Away from the screen for longer than the timeout: the page's next call (its own refresh, or
  // the next click) meets a closed session.
  await page.waitForTimeout(IDLE_MS + 1500);
  if (!(await page.locator('.swal2-popup.swal2-show').isVisible()))
    await sidebar.getByRole('link', { name: 'Lista de Pacientes' }).click();
  const dialog = await answerDialog(page);
  expect(dialog).toMatchObject({ title: 'Sesión cerrada' });
  await page.waitForURL('**/login');
  await screenshot(page, 'idle-signed-out-desktop');
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
});
