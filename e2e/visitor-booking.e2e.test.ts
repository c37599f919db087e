/**
 * A visitor who picks a slot before signing in: the welcome modal, then the slot is booked by
 * itself once the patient has signed in. Also: a wrong password shows the server's error under the
 * password field.
 */
import type { Page } from 'playwright-core';
import { screenshot, DESKTOP, MOBILE, type Browser, appStarted } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { pickFutureSlot } from './support/booking';
import { acceptCookies, answerDialog, fieldError } from './support/dialogs';
import { centreDateTime, createConfirmedPatient, startProduct, type Stack } from './support/product';

let stack: Stack;
let browser: Browser;
let page: Page;
let patient: { email: string; password: string };

browserOnProduct(
  () => startProduct(),
  (started) => ({ stack, browser, page } = started),
  { consent: false },
);

beforeAll(async () => {
  patient = await createConfirmedPatient(stack, 'Carmen Rodríguez Pérez');
}, 60000);

it('shows the server error under the password field for a wrong password', async () => {
  await page.goto(`${stack.gatewayUrl}/login`);
  await acceptCookies(page);
  await page.getByLabel('Correo Electrónico').fill(patient.email);
  await page.getByLabel('Contraseña', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Acceder' }).click();
  expect(await fieldError(page, 'Contraseña')).toBe('Correo electrónico o contraseña incorrectos');
  await screenshot(page, 'login-wrong-password');
  expect(await page.evaluate(() => localStorage.getItem('token'))).toBeNull();
});

let picked = '';

it('gives a visitor who picks a slot the "Bienvenido!" modal with sign-in and sign-up', async () => {
  await page.goto(`${stack.gatewayUrl}/dates`);
  picked = await pickFutureSlot(page, { nth: 4, slot: 3 });
  const modal = page.getByRole('dialog', { name: 'Bienvenido!' });
  await modal.waitFor();
  expect(await modal.getByRole('link', { name: 'Registrarse' }).getAttribute('href')).toBe('/signup');
  await screenshot(page, 'dates-welcome-modal');
  expect(await page.evaluate(() => sessionStorage.getItem('pendingDate'))).toBe(picked);
  await modal.getByRole('link', { name: 'Iniciar Sesión' }).click();
  await page.waitForURL('**/login');
});

it('books the picked slot by itself once the patient has signed in', async () => {
  await page.getByLabel('Correo Electrónico').fill(patient.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(patient.password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  expect((await answerDialog(page)).title).toBe('Inicio de sesión exitoso');
  const booked = await answerDialog(page);
  expect(booked.title).toBe('Reserva exitosa');
  await page.waitForURL('**/user');
  const { date, time } = centreDateTime(picked);
  await page.getByTestId('appointment-date').waitFor();
  expect(await page.getByTestId('appointment-date').textContent()).toBe(date);
  expect(await page.getByTestId('appointment-time').textContent()).toBe(`${time} (Atlantic/Canary)`);
  expect(await page.evaluate(() => sessionStorage.getItem('pendingDate'))).toBeNull();

  // And the server agrees.
  const token = await page.evaluate(() => localStorage.getItem('token'));
  const current = await stack.api.get<{ date: string }>('/dates/currentDate', token ?? undefined);
  expect(new Date(current.body.date).toISOString()).toBe(picked);
});

it('shows "Mi Cita" in the Acceso menu of a signed-in patient, also on a phone', async () => {
  await page.setViewportSize(MOBILE);
  await page.goto(`${stack.gatewayUrl}/dates`);
  await appStarted(page);
  await page.waitForLoadState('networkidle');
  await page.getByRole('button', { name: 'Abrir menú' }).click();
  await page.getByRole('button', { name: 'Acceso' }).click();
  await page.getByRole('link', { name: 'Mi Cita' }).waitFor();
  expect(await page.getByRole('link', { name: 'Cerrar Sesión' }).isVisible()).toBe(true);
  await screenshot(page, 'dates-mobile-menu');
  await page.getByRole('link', { name: 'Mi Cita' }).click();
  await page.waitForURL('**/user');
  expect(await page.getByRole('button', { name: 'Abrir menú' }).getAttribute('aria-expanded')).toBe('false');
  await page.setViewportSize(DESKTOP);
});

it('resets a forgotten password from the e-mailed link, checking that both passwords match', async () => {
  await page.goto(`${stack.gatewayUrl}/signOut`);
  await answerDialog(page);
  await page.waitForURL(`${stack.gatewayUrl}/`);
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByRole('link', { name: '¿Olvidó su contraseña?' }).click();
  await page.getByLabel('Nombre Completo').fill('Carmen Rodríguez Pérez');
  await page.getByLabel('Correo Electrónico').fill(patient.email);
  await page.getByRole('button', { name: 'Enviar' }).click();
  expect((await answerDialog(page)).title).toBe('Se ha enviado un correo');
  await page.waitForURL('**/login');

  const mails = await stack.mail.waitForMessagesTo(patient.email, 1, 20000);
  const reset = mails.map((m) => /\/reset-password\/([A-Za-z0-9_-]+)/.exec(m.Text)?.[0]).find(Boolean);
  expect(reset).toBeDefined();
  await page.goto(`${stack.gatewayUrl}${reset}`);
  await page.getByLabel('Nueva Contraseña').fill('Nueva-Contraseña-2');
  await page.getByLabel('Repetir Contraseña').fill('Otra-Contraseña-3');
  await page.getByRole('button', { name: 'Enviar' }).click();
  expect(await fieldError(page, 'Repetir Contraseña')).toBe('Las contraseñas no coinciden');
  await screenshot(page, 'reset-password-mismatch');
  await page.getByLabel('Repetir Contraseña').fill('Nueva-Contraseña-2');
  await page.getByRole('button', { name: 'Enviar' }).click();
  // The link's answer opens a session: the patient goes straight to their area.
  expect((await answerDialog(page)).title).toBe('Contraseña guardada');
  await page.waitForURL('**/user');

  await page.goto(`${stack.gatewayUrl}/signOut`);
  await answerDialog(page);
  await page.waitForURL(`${stack.gatewayUrl}/`);
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(patient.email);
  await page.getByLabel('Contraseña', { exact: true }).fill('Nueva-Contraseña-2');
  await page.getByRole('button', { name: 'Acceder' }).click();
  expect((await answerDialog(page)).title).toBe('Inicio de sesión exitoso');
  await page.waitForURL('**/user');
});

it('logged no errors in the browser', () => {
  // The 401 of the wrong password is expected.
  expect(browser.errors.filter((e) => !/status of 401/.test(e))).toEqual([]);
});
