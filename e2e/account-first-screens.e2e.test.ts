/**
 * The sign-in and sign-up forms and the patient area paint with the HTML, before the app's code (a
 * phone on a slow connection waits seconds for it): nothing typed into the forms is lost when the app
 * takes over (a first visit with no cookies, typing before, while and after the code arrives), and
 * the patient sees their appointment at once.
 */
import moment from 'moment-timezone';
import type { Page, Route } from 'playwright-core';
import { appStarted, launchBrowser, DESKTOP, MOBILE, type Browser } from './support/browser';
import { answerDialog } from './support/dialogs';
import { BOOTSTRAP, createConfirmedPatient, startProduct, uniqueEmail, type Stack } from './support/product';
import { slotAllocator } from '../test-support/slots';

let stack: Stack;
let browser: Browser | undefined;

beforeAll(async () => {
  stack = await startProduct();
});

afterEach(async () => {
  await browser?.close();
  browser = undefined;
});

afterAll(async () => {
  await stack?.stop();
});

/** A first visit: a browser of its own, no cookies, nothing stored. */
async function firstVisit(viewport: { width: number; height: number }): Promise<Page> {
  browser = await launchBrowser();
  return browser.newPage(viewport);
}

/** The document is there; its held scripts are not (the load event waits for them). */
const BEFORE_SCRIPTS = { waitUntil: 'domcontentloaded' } as const;

/** Holds every script of the page until `release` is called: the slow connection, made exact. */
async function holdScripts(page: Page): Promise<{ release(): void }> {
  const held: Route[] = [];
  let released = false;
  await page.route(/\.js$/, (route) => (released ? route.continue() : void held.push(route)));
  return {
    release() {
      released = true;
      for (const route of held.splice(0)) void route.continue();
    },
  };
}

/** Requests the page sends to the API (none may leave before the app has started). */
function apiPosts(page: Page): string[] {
  const posts: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
  });
  return posts;
}

it('"/login" at 390 px: typed into before the app starts, while it starts and after; signs in', async () => {
  const patient = await createConfirmedPatient(stack, 'Lucía Early Form');
  const page = await firstVisit(MOBILE);
  const posts = apiPosts(page);
  const scripts = await holdScripts(page);
  await page.goto(`${stack.gatewayUrl}/login`, BEFORE_SCRIPTS);

  const email = page.getByLabel('Correo Electrónico');
  const submit = page.getByRole('button', { name: 'Acceder' });
  expect(await page.locator('.prerender-login form').isVisible()).toBe(true);
  expect(await submit.isDisabled()).toBe(true);
  const half = Math.floor(patient.email.length / 2);
  await email.pressSequentially(patient.email.slice(0, half));
  await page.keyboard.press('Enter'); // nothing to send it with yet
  expect(posts).toEqual([]);

  // The code arrives while the visitor goes on typing, one key every 40 ms.
  scripts.release();
  await page.keyboard.type(patient.email.slice(half), { delay: 40 });
  await appStarted(page);
  expect(await page.locator('.prerender-login').count()).toBe(0);
  expect(await email.inputValue()).toBe(patient.email);

  await page.getByLabel('Contraseña', { exact: true }).pressSequentially(patient.password);
  await submit.click();
  expect((await answerDialog(page)).title).toBe('Inicio de sesión exitoso');
  await page.waitForURL('**/user');
});

it('"/signup" at 1280 px: every field typed before the app starts reaches the new account', async () => {
  const page = await firstVisit(DESKTOP);
  const scripts = await holdScripts(page);
  await page.goto(`${stack.gatewayUrl}/signup`, BEFORE_SCRIPTS);
  const email = uniqueEmail('early-signup');
  await page.getByLabel('Nombre Completo').pressSequentially('Nayra Early Santana');
  await page.getByLabel('Número de Teléfono').pressSequentially('612345678');
  await page.getByLabel('Correo Electrónico').pressSequentially(email);
  const password = page.getByLabel('Contraseña', { exact: true });
  await password.pressSequentially('Temprano-2026');
  scripts.release();
  await appStarted(page);

  expect(await page.getByLabel('Nombre Completo').inputValue()).toBe('Nayra Early Santana');
  expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe(email);
  // The visitor was in the password field: still there, the caret after what was typed.
  expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name)).toBe(
    'password',
  );
  await page.keyboard.type('!');
  expect(await password.inputValue()).toBe('Temprano-2026!');
  await page.getByRole('button', { name: 'Enviar' }).click();
  expect((await answerDialog(page)).title).toBe('Registro exitoso');
  await page.waitForURL('**/user');
});

it('a signed-in visitor is not shown the static form on "/login": the app sends them on', async () => {
  const patient = await createConfirmedPatient(stack, 'Pedro Early Session');
  const token = await stack.signIn(patient.email, patient.password);
  const page = await firstVisit(MOBILE);
  await page.goto(`${stack.gatewayUrl}/faqs`);
  await page.evaluate((value) => localStorage.setItem('token', value), token);
  const scripts = await holdScripts(page);
  await page.goto(`${stack.gatewayUrl}/login`, BEFORE_SCRIPTS);
  expect(await page.locator('.prerender-login').isVisible()).toBe(false);
  scripts.release();
  await page.waitForURL('**/user');
});

/** A patient's session stored in a fresh browser, and the patient area opened with its code held. */
async function patientAreaBeforeScripts(viewport: { width: number; height: number }, token: string) {
  const page = await firstVisit(viewport);
  await page.goto(`${stack.gatewayUrl}/faqs`);
  await page.evaluate((value) => localStorage.setItem('token', value), token);
  const scripts = await holdScripts(page);
  await page.goto(`${stack.gatewayUrl}/user`, BEFORE_SCRIPTS);
  return { page, scripts };
}

it('"/user" at 390 px: the appointment shows before the app starts, the same once it has', async () => {
  const patient = await createConfirmedPatient(stack, 'Rayco Early Area');
  const token = await stack.signIn(patient.email, patient.password);
  const slot = slotAllocator(4).next();
  expect((await stack.api.post('/dates', { date: slot }, token)).status).toBe(201);
  const atCentre = moment.tz(slot, 'Atlantic/Canary');

  const { page, scripts } = await patientAreaBeforeScripts(MOBILE, token);
  const date = page.getByTestId('appointment-date');
  await date.waitFor();
  expect(await page.locator('.prerender-user').isVisible()).toBe(true);
  expect(await date.textContent()).toBe(atCentre.format('DD/MM/YYYY'));
  expect(await page.getByTestId('appointment-time').textContent()).toBe(
    `${atCentre.format('HH:mm')} (Atlantic/Canary)`,
  );
  expect(await page.getByRole('link', { name: 'Cambiar cita' }).getAttribute('href')).toBe(
    '/dates?cambiar=1',
  );
  expect(await page.getByRole('button', { name: 'Cancelar Cita' }).isDisabled()).toBe(true);
  const staticCode = await page.getByTestId('booking-code').textContent();

  scripts.release();
  await appStarted(page);
  expect(await page.locator('.prerender-user').count()).toBe(0);
  expect(await date.textContent()).toBe(atCentre.format('DD/MM/YYYY'));
  expect(await page.getByTestId('booking-code').textContent()).toBe(staticCode);
  expect(await page.getByRole('button', { name: 'Cancelar Cita' }).isEnabled()).toBe(true);
});

it('"/user" at 1280 px without an appointment: says so before the app starts; staff get no copy', async () => {
  const patient = await createConfirmedPatient(stack, 'Ione Early Empty');
  const { page, scripts } = await patientAreaBeforeScripts(
    DESKTOP,
    await stack.signIn(patient.email, patient.password),
  );
  await page.getByText('No tienes ninguna cita reservada').waitFor();
  expect(await page.getByRole('link', { name: 'Reservar Cita' }).getAttribute('href')).toBe('/dates');
  scripts.release();
  await appStarted(page);
  await page.getByText('No tienes ninguna cita reservada').waitFor();
  await browser!.close();

  // A doctor's session on "/user": no patient area drawn (the app sends them to their own home).
  const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  const staff = await patientAreaBeforeScripts(DESKTOP, doctor);
  expect(await staff.page.locator('.prerender-user').count()).toBe(0);
  staff.scripts.release();
});
