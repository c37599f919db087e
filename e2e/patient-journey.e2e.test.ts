/**
 * A new patient, in a real browser against the running product: signs up, signs in again before
 * confirming (allowed; the area asks to confirm), confirms the account from the e-mail, signs in,
 * books a free slot, sees it on /user and cancels it.
 */
import type { Page } from 'playwright-core';
import { screenshot, DESKTOP, MOBILE, type Browser, appStarted } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { pickFutureSlot } from './support/booking';
import { acceptCookies, answerDialog } from './support/dialogs';
import { centreDateTime, startProduct, uniqueEmail, type Stack } from './support/product';

let stack: Stack;
let browser: Browser;
let page: Page;

browserOnProduct(
  () => startProduct(),
  (started) => ({ stack, browser, page } = started),
  { consent: false },
);

const email = uniqueEmail('journey');
const password = 'Contraseña-Segura-1';

it('signs up on "Registro de Paciente" with a formatted phone and is signed in at once', async () => {
  await page.goto(`${stack.gatewayUrl}/signup`);
  await acceptCookies(page);
  await page.getByRole('heading', { name: 'Registro de Paciente' }).waitFor();
  await page.getByLabel('Nombre Completo').fill('Lucía Hernández Santana');
  await page.getByLabel('Número de Teléfono').pressSequentially('612345678');
  expect(await page.getByLabel('Número de Teléfono').inputValue()).toBe('+34 612 345 678');
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await screenshot(page, 'signup-filled');
  await page.getByRole('button', { name: 'Enviar' }).click();

  const dialog = await answerDialog(page);
  expect(dialog.title).toBe('Registro exitoso');
  await page.waitForURL('**/user');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeTruthy();
});

it('signs out, then signs in again before confirming: /user asks to confirm the e-mail', async () => {
  await page.goto(`${stack.gatewayUrl}/signOut`);
  expect((await answerDialog(page)).title).toBe('Sesión cerrada exitosamente');
  await page.waitForURL(`${stack.gatewayUrl}/`);
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();

  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  expect((await answerDialog(page)).title).toBe('Inicio de sesión exitoso');
  await page.waitForURL('**/user');
  await page.getByRole('heading', { name: 'Confirme su correo electrónico' }).waitFor();
  await screenshot(page, 'login-unconfirmed');
  // Before booking, the calendar says what happens to a booking of an unconfirmed account.
  await page.goto(`${stack.gatewayUrl}/dates`);
  await page.getByRole('note').filter({ hasText: 'Su correo electrónico aún no está confirmado' }).waitFor();
  expect(await page.getByRole('note').textContent()).toContain('la cita se liberará');

  await page.goto(`${stack.gatewayUrl}/signOut`);
  expect((await answerDialog(page)).title).toBe('Sesión cerrada exitosamente');
  await page.waitForURL(`${stack.gatewayUrl}/`);
});

it('confirms the account from the e-mailed link, which leads to /dates', async () => {
  const [mail] = await stack.mail.waitForMessagesTo(email, 1, 20000);
  const link = /\/confirm-account\/([A-Za-z0-9_-]+)/.exec(mail.Text)?.[0];
  expect(link).toBeDefined();
  await page.goto(`${stack.gatewayUrl}${link}`);
  expect((await answerDialog(page)).title).toBe('Cuenta confirmada');
  await page.waitForURL('**/dates');
});

it('signs in and lands on /user without an appointment', async () => {
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Mostrar contraseña' }).click();
  expect(await page.getByLabel('Contraseña', { exact: true }).getAttribute('type')).toBe('text');
  await page.getByRole('button', { name: 'Acceder' }).click();
  const dialog = await answerDialog(page);
  expect(dialog).toEqual({ title: 'Inicio de sesión exitoso', text: 'Bienvenido' });
  await page.waitForURL('**/user');
  await page.getByText('No tienes ninguna cita reservada').waitFor();
});

it('books a free weekday slot of next month after the confirmation, and /user shows it', async () => {
  await page.goto(`${stack.gatewayUrl}/dates`);
  await appStarted(page);
  const slot = await pickFutureSlot(page, { nth: 2, slot: 1 });
  const { date, time } = centreDateTime(slot);

  const confirmation = await answerDialog(page, 'confirm');
  expect(confirmation.text).toBe(`Fecha ${date} Hora ${time} (Atlantic/Canary)`);
  const success = await answerDialog(page);
  expect(success.title).toBe('Reserva exitosa');
  // Confirmed by now: no warning about a release.
  expect(success.text).not.toContain('liberará');

  await page.waitForURL('**/user');
  expect(await page.getByTestId('appointment-date').textContent()).toBe(date);
  expect(await page.getByTestId('appointment-time').textContent()).toBe(`${time} (Atlantic/Canary)`);
  await screenshot(page, 'user-appointment');
  await page.setViewportSize(MOBILE);
  await screenshot(page, 'user-appointment');
  await page.setViewportSize(DESKTOP);

  // The slot is no longer offered.
  await page.goto(`${stack.gatewayUrl}/dates`);
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await page
    .locator(
      '.wk-calendar__day:not(.wk-calendar__day--weekend):not(.wk-calendar__day--closed):not([disabled])',
    )
    .nth(2)
    .click();
  await page.locator('.wk-slot').first().waitFor();
  expect(await page.locator(`.wk-slot[data-slot="${slot}"]`).count()).toBe(0);
});

it('cancels the appointment from /user', async () => {
  await page.goto(`${stack.gatewayUrl}/user`);
  await page.getByRole('button', { name: 'Cancelar Cita' }).click();
  await answerDialog(page, 'confirm');
  expect((await answerDialog(page)).title).toBe('Cancelación exitosa');
  await page.getByText('No tienes ninguna cita reservada').waitFor();
  await screenshot(page, 'user-empty');
});

it('logged no errors in the browser', () => {
  expect(browser.errors).toEqual([]);
});
