/**
 * Staff accounts and the second factor in real Chromium: an admin invites a doctor on "Personal"; the doctor
 * sets a password through the e-mailed link and, on a phone, is walked through the second factor at their
 * first sign-in (QR code, first code, recovery codes); later sign-ins ask for the code (desktop); the
 * admin disables the account; the admin turns the factor on from "Seguridad".
 */
import type { Page } from 'playwright-core';
import { signInThroughUi, signOutThroughUi } from './support/session';
import { codeAt } from '../test-support/staff-accounts';
import { screenshot, DESKTOP, MOBILE } from './support/browser';
import { answerDialog } from './support/dialogs';
import { browserOnProduct } from './support/browser-product';
import { BOOTSTRAP, startFullProduct, uniqueEmail, type Stack } from './support/product';

let stack: Stack;
let page: Page;

browserOnProduct(
  () => startFullProduct(['backoffice'], { MFA_REQUIRED_ROLES: 'DOCTOR' }),
  (started) => ({ stack, page } = started),
);

const signOut = () => signOutThroughUi(page, stack.gatewayUrl);
const typePassword = async (email: string, password: string) => {
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
};

it('invites a doctor, who sets up the second factor at the first sign-in and then signs in with codes; the admin disables them', async () => {
  const email = uniqueEmail('doctora');
  const password = 'consulta-de-tarde-31';

  // Desktop: the admin invites on "Personal".
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  await page.waitForURL('**/doctor/**');
  await page.goto(`${stack.gatewayUrl}/doctor/staff`);
  await page.getByLabel('Nombre').fill('Dra. Inés Cabrera');
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByRole('button', { name: 'Enviar invitación' }).click();
  expect(await answerDialog(page)).toMatchObject({ title: 'Invitación enviada' });
  const row = page.getByTestId('staff-row').filter({ hasText: email });
  await row.getByText('Invitación pendiente').waitFor();
  await screenshot(page, 'staff-invited-desktop');
  await signOut();

  // The e-mailed link sets the password; the sign-in then asks for the set-up, on a phone.
  const [mail] = await stack.mail.waitForMessagesTo(email, 1);
  const link = /\/reset-password\/[A-Za-z0-9_-]+\?invitation=1/.exec(mail!.Text)![0];
  // This configuration asks doctors for a second factor: the invitation announces it.
  expect(mail!.Text).toContain('configure la verificación en dos pasos');
  await page.setViewportSize(MOBILE);
  await page.goto(`${stack.gatewayUrl}${link}`);
  // The page of the e-mail's "Crear mi contraseña" says what it does.
  await page.getByRole('heading', { name: 'Crear contraseña' }).waitFor();
  expect(await page.title()).toContain('Crear contraseña');
  await page.getByLabel('Nueva Contraseña').fill(password);
  await page.getByLabel('Repetir Contraseña').fill(password);
  await page.getByRole('button', { name: 'Enviar' }).click();
  await answerDialog(page);
  await page.waitForURL('**/login');
  await typePassword(email, password);
  await page.getByRole('heading', { name: 'Verificación en dos pasos' }).first().waitFor();
  await page.getByRole('img', { name: 'Código QR para la aplicación de autenticación' }).waitFor();
  const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s/g, '');
  // On the phone the key wraps between its groups of four, never inside one.
  const groupLines = await page
    .getByTestId('mfa-secret')
    .locator('.wk-mfa__group')
    .evaluateAll((groups) => groups.map((group) => group.getClientRects().length));
  expect(groupLines.length).toBeGreaterThan(1);
  expect(groupLines.every((lines) => lines === 1)).toBe(true);
  await screenshot(page, 'mfa-enrol-phone');
  await page.getByLabel('Código de la aplicación').fill('000000');
  await page.getByRole('button', { name: 'Activar' }).click();
  await page.getByText('Código incorrecto o caducado').waitFor();
  await page.getByLabel('Código de la aplicación').fill(codeAt(secret, 0));
  await page.getByRole('button', { name: 'Activar' }).click();
  const codes = page.getByTestId('recovery-codes').locator('li');
  await codes.first().waitFor();
  expect(await codes.count()).toBe(10);
  await screenshot(page, 'mfa-recovery-codes-phone');
  await page.getByRole('button', { name: 'He guardado los códigos' }).click();
  await answerDialog(page);
  await page.waitForURL('**/doctor/**');
  await signOut();

  // Desktop: the next sign-in asks for the code.
  await page.setViewportSize(DESKTOP);
  await typePassword(email, password);
  await page.getByLabel('Código de verificación').fill(codeAt(secret, 1));
  await screenshot(page, 'mfa-code-desktop');
  await page.getByRole('button', { name: 'Verificar' }).click();
  await answerDialog(page);
  await page.waitForURL('**/doctor/**');
  await page.goto(`${stack.gatewayUrl}/doctor/security`);
  await page.getByTestId('mfa-state').getByText('está activada').waitFor();
  await signOut();

  // The admin disables the account: "Desactivada", and the doctor's password no longer opens it.
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  await page.waitForURL('**/doctor/**');
  await page.goto(`${stack.gatewayUrl}/doctor/staff`);
  await row.getByRole('button', { name: 'Desactivar' }).click();
  expect(await answerDialog(page, 'confirm')).toMatchObject({ title: '¿Desactivar la cuenta?' });
  await row.getByText('Desactivada').waitFor();
  await row.getByText('Sí').waitFor();
  await screenshot(page, 'staff-disabled-desktop');
  const refused = await stack.api.post('/auth/signIn', { email, password });
  expect(refused.status).toBe(403);
});

it('lets an admin turn the second factor on from "Seguridad"', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${stack.gatewayUrl}/doctor/security`);
  await page.getByRole('button', { name: 'Activar la verificación en dos pasos' }).click();
  await page.getByRole('img', { name: 'Código QR para la aplicación de autenticación' }).waitFor();
  const secret = ((await page.getByTestId('mfa-secret').textContent()) ?? '').replace(/\s/g, '');
  await page.getByLabel('Código de la aplicación').fill(codeAt(secret));
  await page.getByRole('button', { name: 'Activar' }).click();
  await page.getByTestId('recovery-codes').waitFor();
  await screenshot(page, 'mfa-security-desktop');
  await page.getByRole('button', { name: 'He guardado los códigos' }).click();
  expect(await answerDialog(page)).toMatchObject({ title: 'Verificación activada' });
  await page.getByTestId('mfa-state').getByText('está activada').waitFor();
  const again = await stack.api.post('/auth/signIn', {
    email: BOOTSTRAP.admin.email,
    password: BOOTSTRAP.admin.password,
  });
  expect(again.body).toMatchObject({ mfaRequired: true });
});
