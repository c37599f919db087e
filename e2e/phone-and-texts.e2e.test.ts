/**
 * Phone numbers and form errors (docs/product/README.md#phone-numbers) in real Chromium against the running
 * product, at 390×844 and 1280×800: a phone typed key by key into the sign-up form, the kiosk's details step
 * and the staff "Registrar Paciente" form shows "+34 699 111 222" at every width and is stored as 34699111222
 * (read back through the API), the patient list shows it the same way, and a malformed e-mail at sign-up
 * gets a Spanish message under the e-mail field.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { signInThroughUi } from './support/session';
import { REPO_ROOT, screenshot, DESKTOP } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { columnTexts } from './support/backoffice';
import { answerDialog, fieldError } from './support/dialogs';
import { kioskBackend, kioskScreenshot, signInAsKiosk, startKioskProduct } from './support/kiosk-product';
import { BOOTSTRAP, uniqueEmail } from './support/product';

const PHONE = { width: 390, height: 844 };
const WIDTHS = [PHONE, DESKTOP] as const;
const SHOWN = '+34 699 111 222';
const STORED = '34699111222';

let stack: Awaited<ReturnType<typeof startKioskProduct>>;
let backend: Awaited<ReturnType<typeof kioskBackend>>;
let doctor: string;
let page: Page;

browserOnProduct(
  () => startKioskProduct(),
  (started) => ({ stack, page } = started),
  { viewport: PHONE },
);

beforeAll(async () => {
  const remoteEntry = path.join(REPO_ROOT, 'frontends', 'backoffice', 'dist', 'remoteEntry.js');
  if (!fs.existsSync(remoteEntry)) {
    throw new Error(
      'frontends/backoffice/dist is missing: build it first (npm run build -w @crm/backoffice)',
    );
  }
  // auth, the e-mail worker and appointments behind the gateway, serving the shell and both remotes.
  backend = await kioskBackend(stack);
  doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
}, 90000);

/** Ends whatever session the page has (the token lives in local storage, docs/product/booking.md#session). */
async function signOut(): Promise<void> {
  await page.evaluate(() => localStorage.removeItem('token'));
}

/**
 * Types `text` one key at a time and returns what the field showed after each key. A "+34…" typed
 * this way must never show digits other than the start of the number (no second prefix).
 */
async function typeKeyByKey(field: Locator, text: string): Promise<string[]> {
  await field.fill('');
  const shown: string[] = [];
  for (const key of text) {
    await field.press(key === ' ' ? 'Space' : key);
    shown.push(await field.inputValue());
  }
  return shown;
}

function expectNeverCorrupted(shown: string[]): void {
  for (const value of shown) expect(STORED.startsWith(value.replace(/\D/g, ''))).toBe(true);
  expect(shown.at(-1)).toBe(SHOWN);
}

/** The patient's phone as stored, read the way the back office reads it (GET /users/pacients). */
async function storedPhone(email: string): Promise<string | undefined> {
  const response = await stack.api.get(`/users/pacients?search=${encodeURIComponent(email)}`, doctor);
  expect(response.status).toBe(200);
  return response.body.pacients[0]?.phone;
}

describe.each(WIDTHS)('at $width×$height', (viewport) => {
  beforeAll(async () => {
    await page.setViewportSize(viewport);
  });

  it('sign-up: "+34 699 111 222" typed key by key shows as typed and is stored as 34699111222', async () => {
    await signOut();
    await page.goto(`${stack.gatewayUrl}/signup`);
    await page.getByRole('heading', { name: 'Registro de Paciente' }).waitFor();
    const phone = page.getByLabel('Número de Teléfono');
    expect(await phone.getAttribute('type')).toBe('tel');

    // "0034 …" becomes the same number (not submitted: the "+34 …" below is).
    expect((await typeKeyByKey(phone, '0034 699 111 222')).at(-1)).toBe(SHOWN);
    expect((await typeKeyByKey(phone, '699111222')).at(-1)).toBe(SHOWN);
    expectNeverCorrupted(await typeKeyByKey(phone, '+34 699 111 222'));

    const email = uniqueEmail('phone-signup');
    await page.getByLabel('Nombre Completo').fill('Nayra Santana Ramos');
    await page.getByLabel('Correo Electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Contraseña-Segura-1');
    await screenshot(page, 'phone-signup-typed');
    await page.getByRole('button', { name: 'Enviar' }).click();
    expect((await answerDialog(page)).title).toBe('Registro exitoso');
    await page.waitForURL('**/user');
    expect(await storedPhone(email)).toBe(STORED);
  });

  it('sign-up: a malformed e-mail gets a Spanish message under the e-mail field', async () => {
    await signOut();
    await page.goto(`${stack.gatewayUrl}/signup`);
    await page.getByLabel('Nombre Completo').fill('Nayra Santana Ramos');
    await typeKeyByKey(page.getByLabel('Número de Teléfono'), '699 111 222');
    // Valid for the browser's e-mail input, refused by the server.
    await page.getByLabel('Correo Electrónico').fill('nayra@correo');
    await page.getByLabel('Contraseña', { exact: true }).fill('Contraseña-Segura-1');
    await page.getByRole('button', { name: 'Enviar' }).click();
    expect(await fieldError(page, 'Correo Electrónico')).toBe(
      'El formato del correo electrónico no es válido',
    );
    expect(await page.getByLabel('Número de Teléfono').inputValue()).toBe(SHOWN);
    await screenshot(page, 'phone-signup-email-error');
  });

  it('kiosk details step: the phone typed key by key is shown as typed and stored as 34699111222', async () => {
    await signOut();
    await signInAsKiosk(page, stack.gatewayUrl);
    const email = uniqueEmail('phone-kiosk');
    await page.getByRole('heading', { level: 1, name: 'Bienvenido', exact: true }).waitFor();
    await page.getByLabel('Correo Electrónico').fill(email);
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    // A new e-mail has no code to give: the person says it is their first visit.
    await page.getByRole('heading', { level: 1, name: 'Identifíquese', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Es mi primera visita', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Ya casi', exact: true }).waitFor();
    await page.getByLabel('Nombre Completo').fill('Carmen Suárez Déniz');
    expectNeverCorrupted(await typeKeyByKey(page.getByLabel('Teléfono'), '+34 699 111 222'));
    await kioskScreenshot(page, 'phone-kiosk-typed');
    await page.getByRole('button', { name: 'Continuar con Cita', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: '¡Todo listo!', exact: true }).waitFor();
    expect((await backend.patient(email))?.phone).toBe(STORED);
  });

  it('"Registrar Paciente": the phone typed key by key is stored as 34699111222 and listed as "+34 699 111 222"', async () => {
    await signOut();
    await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    await page.waitForURL('**/doctor/appointments');
    await page.goto(`${stack.gatewayUrl}/doctor/patient/create`);
    const name = `Irene Quintana ${viewport.width}`;
    const email = uniqueEmail('phone-staff');
    await page.getByLabel('Nombre Completo').fill(name);
    expectNeverCorrupted(await typeKeyByKey(page.getByLabel('Número de Teléfono'), '+34 699 111 222'));
    await page.getByLabel('Correo Electrónico').fill(email);
    await page.getByLabel('Contraseña', { exact: true }).fill('Paciente1234!');
    await screenshot(page, 'phone-staff-typed');
    await page.getByRole('button', { name: 'Registrar Paciente' }).click();
    expect((await answerDialog(page)).title).toBe('Paciente Registrado');
    expect(await storedPhone(email)).toBe(STORED);

    await page.goto(`${stack.gatewayUrl}/doctor/patients/list`);
    await page.getByLabel('Buscar paciente').fill(email);
    // The search waits 500 ms after the last key: wait until the list shows only this patient.
    await page
      .getByRole('table', { name: 'Listado de Pacientes' })
      .locator('tbody tr')
      .filter({ hasText: name })
      .waitFor();
    await page.waitForFunction(
      () => document.querySelectorAll('table[aria-label="Listado de Pacientes"] tbody tr').length === 1,
    );
    expect(await columnTexts(page, 'Listado de Pacientes', 'Teléfono')).toEqual([SHOWN]);
    await screenshot(page, 'phone-staff-patient-list');
  });
});
