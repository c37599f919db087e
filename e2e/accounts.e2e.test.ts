/**
 * Accounts without lock-outs (docs/product/patient-area.md#unconfirmed-accounts) in a real browser against
 * the running product: a new patient signs up, signs out and signs in again before confirming (the patient
 * area asks to confirm and re-sends the e-mail); a patient registered by a doctor without a password opens
 * the invitation link, sets a password and lands in their area.
 */
import type { Page } from 'playwright-core';
import { signInThroughUi, signOutThroughUi } from './support/session';
import { screenshot, DESKTOP, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { acceptCookies, answerDialog } from './support/dialogs';
import { BOOTSTRAP, startFullProduct, uniqueEmail, type Stack } from './support/product';

/** The phone viewport of the screenshots. */
const PHONE = { width: 390, height: 844 };

let stack: Stack;
let browser: Browser;
let page: Page;

browserOnProduct(
  () => startFullProduct(['backoffice']),
  (started) => ({ stack, browser, page } = started),
  { consent: false },
);

const email = uniqueEmail('lockout');
const password = 'Contraseña-Segura-1';
const banner = () => page.getByRole('heading', { name: 'Confirme su correo electrónico' });

async function signOut() {
  expect((await signOutThroughUi(page, stack.gatewayUrl)).title).toBe('Sesión cerrada exitosamente');
}

async function bothScreens(name: string) {
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await screenshot(page, name, true);
  await page.setViewportSize(DESKTOP);
}

it('signs up, signs out and signs in again without confirming: the area asks to confirm the e-mail', async () => {
  await page.goto(`${stack.gatewayUrl}/signup`);
  await acceptCookies(page);
  await page.getByLabel('Nombre Completo').fill('Marta Suárez Déniz');
  await page.getByLabel('Número de Teléfono').pressSequentially('612345678');
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Enviar' }).click();
  expect((await answerDialog(page)).title).toBe('Registro exitoso');
  await page.waitForURL('**/user');
  await banner().waitFor();

  await signOut();
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  expect(await answerDialog(page)).toEqual({ title: 'Inicio de sesión exitoso', text: 'Bienvenido' });
  await page.waitForURL('**/user');
  await banner().waitFor();
  expect(await page.getByRole('status').filter({ has: banner() }).textContent()).toContain(email);
  await page.getByText('No tienes ninguna cita reservada').waitFor();
  await bothScreens('accounts-unconfirmed-banner');
});

it('"Reenviar correo" shows a success dialog and a new confirmation e-mail arrives, whose link confirms', async () => {
  await stack.mail.waitForMessagesTo(email, 1, 20000);
  await page.getByRole('button', { name: 'Reenviar correo' }).click();
  const popup = page.locator('.swal2-popup.swal2-show');
  await popup.waitFor();
  await page.waitForTimeout(500); // the dialog's entrance animation
  await bothScreens('accounts-resend-dialog');
  expect(await answerDialog(page)).toEqual({
    title: 'Correo enviado',
    text: 'Le hemos enviado un nuevo enlace de confirmación. Revise su bandeja de entrada (y la carpeta de correo no deseado).',
  });

  const mails = await stack.mail.waitForMessagesTo(email, 2, 20000);
  expect(mails.map((m) => m.Subject)).toEqual(['Confirme su cuenta', 'Confirme su cuenta']);
  // The re-sent link (the newest e-mail) is the one that counts now.
  const newest = [...mails].sort((a, b) => Date.parse(b.Created) - Date.parse(a.Created))[0]!;
  const link = /\/confirm-account\/[A-Za-z0-9_-]+/.exec(newest.Text)?.[0];
  expect(link).toBeDefined();
  await page.goto(`${stack.gatewayUrl}${link}`);
  expect((await answerDialog(page)).title).toBe('Cuenta confirmada');
  await page.waitForURL('**/dates');

  await page.goto(`${stack.gatewayUrl}/user`);
  await page.getByText('No tienes ninguna cita reservada').waitFor();
  expect(await banner().count()).toBe(0);
  await signOut();
});

const invited = { name: 'Tomás Vega Ojeda', email: uniqueEmail('invited') };

it('a doctor registers a patient without a password; the form says the invitation is the way in', async () => {
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await page.waitForURL('**/doctor/appointments');
  await page.goto(`${stack.gatewayUrl}/doctor/patient/create`);
  await page.getByLabel('Nombre Completo').fill(invited.name);
  await page.getByLabel('Número de Teléfono').pressSequentially('622334455');
  await page.getByLabel('Correo Electrónico').fill(invited.email);
  expect(await page.getByLabel('Contraseña', { exact: true }).getAttribute('required')).toBeNull();
  await page.getByText('Si la deja en blanco, el paciente recibirá un correo electrónico').waitFor();
  await bothScreens('accounts-register-without-password');
  await page.getByRole('button', { name: 'Registrar Paciente' }).click();
  expect(await answerDialog(page)).toEqual({
    title: 'Paciente Registrado',
    text: 'El paciente ha sido registrado correctamente. Le hemos enviado un correo electrónico para que cree su contraseña y pueda entrar en su área.',
  });
  await page.waitForFunction(
    () => (document.querySelector('input[name="name"]') as HTMLInputElement)?.value === '',
  );
  await signOut();
});

it('the invited patient opens the link, sets a password and lands in their area; then signs in with it', async () => {
  const [mail] = await stack.mail.waitForMessagesTo(invited.email, 1, 20000);
  expect(mail!.Subject).toBe('Cree su contraseña para acceder a su área de paciente');
  const link = /\/reset-password\/[A-Za-z0-9_-]+/.exec(mail!.Text)?.[0];
  expect(link).toBeDefined();
  // The e-mail itself, as a phone and a desktop mail client would show it (every request of this
  // page, the favicon included, answers with the e-mail's HTML).
  const mailPage = await browser.context.newPage();
  await mailPage.route('**/*', (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: mail!.HTML }),
  );
  await mailPage.goto('http://mail.test/invitation');
  await screenshot(mailPage, 'accounts-invitation-email', true);
  await mailPage.setViewportSize(PHONE);
  await screenshot(mailPage, 'accounts-invitation-email', true);
  await mailPage.close();

  await page.setViewportSize(PHONE);
  await page.goto(`${stack.gatewayUrl}${link}`);
  await page.getByLabel('Nueva Contraseña').fill('Mi-Clave-Nueva-1');
  await page.getByLabel('Repetir Contraseña').fill('Mi-Clave-Nueva-1');
  await screenshot(page, 'accounts-invitation-set-password', true);
  await page.getByRole('button', { name: 'Enviar' }).click();
  expect(await answerDialog(page)).toEqual({
    title: 'Contraseña guardada',
    text: 'Su contraseña se ha guardado correctamente. Bienvenido a su área.',
  });
  await page.waitForURL('**/user');
  await page.getByText(`Hola, ${invited.name}.`).waitFor();
  await page.getByText('No tienes ninguna cita reservada').waitFor();
  // The link also confirmed the address: no banner.
  expect(await banner().count()).toBe(0);
  await screenshot(page, 'accounts-invited-area', true);
  await page.setViewportSize(DESKTOP);
  await screenshot(page, 'accounts-invited-area');

  await signOut();
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(invited.email);
  await page.getByLabel('Contraseña', { exact: true }).fill('Mi-Clave-Nueva-1');
  await page.getByRole('button', { name: 'Acceder' }).click();
  expect((await answerDialog(page)).title).toBe('Inicio de sesión exitoso');
  await page.waitForURL('**/user');
});

it('logged no errors in the browser', () => {
  expect(browser.errors).toEqual([]);
});
