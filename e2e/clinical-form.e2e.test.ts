/**
 * The clinical-record form of an appointment (docs/product/clinical-records.md) in real Chromium against the
 * running product, signed in as DOCTOR:
 * - the totals follow the certificate type: the DGT fee and DGT management only for a driving licence
 *   (53,58 € → 54 € for a 10-year renewal), the check-up alone for weapons or studies;
 * - a number field refuses "abc" under itself and the form cannot be saved; a text field counts its
 *   0–100 characters while typing and stops at 100;
 * - an appointment with a record shows "Ver Historia Clínica" instead of "Crear Historia Clínica";
 * - a second save of the same appointment (two tabs) shows the server's Spanish 409 message, never
 *   "Internal server error", and keeps what was typed.
 * Screenshots at 1280×800 and 390×844 in artifacts/screenshots (clinical-form-*).
 */
import type { Locator, Page } from 'playwright-core';
import { signInThroughUi } from './support/session';
import { screenshot, DESKTOP, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { answerDialog } from './support/dialogs';
import { centreInstant, nextMonthWeekdays, seedAppointments } from './support/backoffice';
import { BOOTSTRAP, startFullProduct, type Stack } from './support/product';

const PHONE = { width: 390, height: 844 };
const ALREADY_RECORDED = 'Esta cita ya tiene una historia clínica; actualízala en lugar de crear otra';

let stack: Stack;
let browser: Browser;
let page: Page;
let doctorToken: string;
/** Without a record at first: the form, then the two-tab save. */
let fresh: { id: string; date: string };
/** Given a record through the API before the browser opens it. */
let recorded: { id: string; date: string };

const asSent = (values: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { name, value }]));

browserOnProduct(
  () => startFullProduct(['backoffice']),
  (started) => ({ stack, browser, page } = started),
);

beforeAll(async () => {
  doctorToken = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  // One active appointment per patient: two patients.
  const suffix = Date.now().toString(36);
  const [day] = nextMonthWeekdays();
  const [first, second] = await seedAppointments(stack, [
    { name: `Ainhoa Suárez Medina ${suffix}`, date: centreInstant(day!, '10:00') },
    { name: `Iker Domínguez Ramos ${suffix}`, date: centreInstant(day!, '10:15') },
  ]);
  const other = second!.patient;
  fresh = { id: first!.id, date: first!.date };
  recorded = { id: second!.id, date: second!.date };
  const record = await stack.api.post(
    '/records',
    {
      userId: other.id,
      dateId: recorded.id,
      metadata: asSent({
        certificateType: 'Licencia de armas',
        weight: '80',
        height: '181',
        bloodPressure: '118/76',
        visualAcuity: '1,0',
        result: 'Apto',
        validity: '5 años',
      }),
    },
    doctorToken,
  );
  if (record.status !== 201)
    throw new Error(`record failed: ${record.status} ${JSON.stringify(record.body)}`);
}, 90000);

const on = (tab: Page) => ({
  button: (name: string) => tab.getByRole('button', { name, exact: true }),
  field: (label: string) => tab.getByLabel(label, { exact: false }),
});
const inputs = () => on(page);
/** A screenshot at 1280×800 and at 390×844, with `focus` scrolled into view at each size. */
const shot = async (name: string, tab: Page = page, fullPage = false, focus?: Locator) => {
  const viewport = tab.viewportSize();
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(tab, name, fullPage);
  await tab.setViewportSize(PHONE);
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(tab, name, fullPage);
  if (viewport) await tab.setViewportSize(viewport);
};

async function openForm(tab: Page, appointmentId: string): Promise<void> {
  await tab.goto(`${stack.gatewayUrl}/doctor/appointments/${appointmentId}`);
  await on(tab).button('Crear Historia Clínica').click();
  await on(tab).button('Guardar Historia Clínica').waitFor();
}

/** Everything a weapons check-up needs, typed as a doctor would. */
async function fillCheckUp(tab: Page, observations: string): Promise<void> {
  const { field: input } = on(tab);
  await input('Tipo de certificado').selectOption('Licencia de armas');
  await input('Peso (kg)').fill('64,5');
  await input('Altura (cm)').fill('170');
  await input('Tensión arterial').fill('121/79');
  await input('Agudeza visual').fill('0,9 ambos ojos');
  await input('Resultado').selectOption('Apto');
  await input('Vigencia del certificado').selectOption('5 años');
  await input('Observaciones').fill(observations);
}

it('signs in as DOCTOR', async () => {
  const { email, password } = BOOTSTRAP.doctor;
  expect((await signInThroughUi(page, stack.gatewayUrl, email, password)).title).toBe(
    'Inicio de sesión exitoso',
  );
  await page.waitForURL('**/doctor/appointments');
});

it('prices by certificate type: DGT fees only for a driving licence (53.58 → 54), the check-up alone otherwise', async () => {
  const { field: input } = inputs();
  await openForm(page, fresh.id);
  const totals = async () => [await input('Importe neto').inputValue(), await input('Total').inputValue()];
  const dgtShown = async () =>
    [await page.getByLabel('Tasa DGT').count(), await page.getByLabel('Gestión DGT').count()].join(',');

  // No certificate type yet: the check-up only.
  expect(await totals()).toEqual(['19,00 €', '19 €']);
  expect(await dgtShown()).toBe('0,0');

  await input('Tipo de certificado').selectOption('Permiso de conducir');
  await input('Tasa DGT según vigencia').waitFor();
  expect(await dgtShown()).toBe('1,1');
  expect(await input('Gestión DGT').inputValue()).toBe('10');
  // No DGT fee is preselected (no validity chosen yet): check-up + DGT management.
  expect(await totals()).toEqual(['29,00 €', '29 €']);
  await input('Tasa DGT según vigencia').selectOption('24.58');
  expect(await totals()).toEqual(['53,58 €', '54 €']);
  await shot('clinical-form-driving-54', page, true);

  await input('Tipo de certificado').selectOption('Licencia de armas');
  await page.getByLabel('Tasa DGT').waitFor({ state: 'detached' });
  expect(await dgtShown()).toBe('0,0');
  expect(await totals()).toEqual(['19,00 €', '19 €']);
  await shot('clinical-form-weapons-19', page, true);

  await input('Tipo de certificado').selectOption('Estudios');
  await input('Informe adicional').selectOption('10');
  expect(await totals()).toEqual(['29,00 €', '29 €']);
  await input('Informe adicional').selectOption('0');

  // Back to a driving licence: the fee chosen before comes back with its fields.
  await input('Tipo de certificado').selectOption('Permiso de conducir');
  expect(await totals()).toEqual(['53,58 €', '54 €']);
  await input('Tipo de certificado').selectOption('Licencia de armas');
  expect(await totals()).toEqual(['19,00 €', '19 €']);
});

it('refuses "abc" in a number field: a Spanish error under it, and the form is not sent', async () => {
  const { field: input, button: press } = inputs();
  const posts: string[] = [];
  const count = (request: { method(): string; url(): string }) => {
    if (request.method() === 'POST' && request.url().includes('/api/v1/records')) posts.push(request.url());
  };
  page.on('request', count);
  await fillCheckUp(page, 'Primera pestaña');
  await input('Peso (kg)').fill('abc');
  const error = page.locator('.cr-field--number', { has: page.getByLabel('Peso (kg)') }).getByRole('alert');
  await error.waitFor();
  expect(await error.textContent()).toBe('Escriba un número (por ejemplo 72 o 72,5)');
  expect(await input('Peso (kg)').getAttribute('aria-invalid')).toBe('true');
  expect(await input('Peso (kg)').evaluate((el) => (el as HTMLInputElement).validationMessage)).toBe(
    'Escriba un número (por ejemplo 72 o 72,5)',
  );
  await shot('clinical-form-number-refused', page, false, input('Peso (kg)'));

  await press('Guardar Historia Clínica').click();
  await page.waitForTimeout(500);
  expect(posts).toEqual([]);
  expect(await page.locator('.swal2-popup').count()).toBe(0);
  expect(await input('Peso (kg)').inputValue()).toBe('abc');

  // A price too: no silent 0.
  await input('Reconocimiento médico').fill('diecinueve');
  expect(
    await page
      .locator('.cr-field', { has: page.getByLabel('Reconocimiento médico') })
      .getByRole('alert')
      .textContent(),
  ).toBe('Escriba un número (por ejemplo 72 o 72,5)');
  await input('Reconocimiento médico').fill('19');
  await input('Peso (kg)').fill('64,5');
  await error.waitFor({ state: 'detached' });
  expect(await input('Peso (kg)').getAttribute('aria-invalid')).toBeNull();
  page.off('request', count);
});

it('counts a text’s characters while typing (n/100) and stops at 100', async () => {
  const { field: input } = inputs();
  const counter = page
    .locator('.cr-field', { has: page.getByLabel('Tensión arterial') })
    .locator('.cr-field__counter');
  await input('Tensión arterial').fill('');
  expect(await counter.textContent()).toContain('0/100');
  await input('Tensión arterial').pressSequentially('120/80 mmHg');
  expect(await counter.textContent()).toContain('11/100');
  expect(await counter.isVisible()).toBe(true);
  expect(await input('Tensión arterial').getAttribute('maxlength')).toBe('100');

  const observations = input('Observaciones');
  const observationsCounter = page
    .locator('.cr-field', { has: page.getByLabel('Observaciones') })
    .locator('.cr-field__counter');
  await observations.fill('o'.repeat(99));
  await observations.press('End');
  await observations.pressSequentially('pqr');
  expect((await observations.inputValue()).length).toBe(100);
  expect(await observationsCounter.textContent()).toContain('100/100');
  await shot('clinical-form-text-counter', page, false, observationsCounter);
  await observations.fill('Primera pestaña');
  expect(await observationsCounter.textContent()).toContain('15/100');
});

it('two tabs: the second save shows the Spanish 409 message (not "Internal server error") and keeps the form', async () => {
  const second = await browser.newPage(DESKTOP);
  try {
    await openForm(second, fresh.id);
    await fillCheckUp(second, 'Segunda pestaña');
    await on(second).field('Informe adicional').selectOption('10');

    // The first tab saves first.
    await inputs().button('Guardar Historia Clínica').click();
    expect((await answerDialog(page)).title).toBe('Datos Guardados');
    await page.getByRole('link', { name: 'Ver Historia Clínica' }).waitFor();

    // The second tab, still showing the form, saves the same appointment.
    await on(second).button('Guardar Historia Clínica').click();
    const popup = second.locator('.swal2-popup.swal2-show');
    await popup.waitFor();
    await second.waitForTimeout(400); // the dialog's fade-in, for a readable screenshot only
    await shot('clinical-form-second-save-409', second);
    expect(await answerDialog(second)).toEqual({
      title: 'No se pudo guardar la historia clínica',
      text: ALREADY_RECORDED,
    });

    // What was typed is all still there, and the record that exists is one click away.
    const { field: input, button: press } = on(second);
    expect(await input('Observaciones').inputValue()).toBe('Segunda pestaña');
    expect(await input('Peso (kg)').inputValue()).toBe('64,5');
    expect(await input('Tipo de certificado').inputValue()).toBe('Licencia de armas');
    expect(await input('Informe adicional').inputValue()).toBe('10');
    expect(await input('Total').inputValue()).toBe('29 €');
    await press('Guardar Historia Clínica').waitFor();
    const link = second.getByRole('link', { name: 'Ver Historia Clínica' });
    await link.waitFor();
    expect(await link.getAttribute('href')).toBe(`/doctor/patient/records/detail/${fresh.id}`);
    await shot('clinical-form-second-save-kept', second, true);

    // The first save is the record.
    const stored = await stack.api.get<{ metadata: Record<string, { value: unknown }> }>(
      `/records/${fresh.id}`,
      doctorToken,
    );
    expect(stored.body.metadata.observations!.value).toBe('Primera pestaña');
    expect(stored.body.metadata.total!.value).toBe(19);
    expect(stored.body.metadata).not.toHaveProperty('dgtFee');
  } finally {
    await second.close();
  }
});

it('an appointment with a record shows "Ver Historia Clínica" instead of "Crear Historia Clínica"', async () => {
  await page.goto(`${stack.gatewayUrl}/doctor/appointments/${recorded.id}`);
  const link = page.getByRole('link', { name: 'Ver Historia Clínica' });
  await link.waitFor();
  expect(await page.getByText('Esta cita ya tiene una historia clínica.').count()).toBe(1);
  expect(await inputs().button('Crear Historia Clínica').count()).toBe(0);
  expect(await link.getAttribute('href')).toBe(`/doctor/patient/records/detail/${recorded.id}`);
  await shot('clinical-form-record-exists');

  await link.click();
  await page.waitForURL(`**/doctor/patient/records/detail/${recorded.id}`);
  await inputs().button('Actualizar Historia Clínica').waitFor();
  expect(await inputs().field('Total').inputValue()).toBe('19 €');
});

it('logged no errors in the browser except the refused second save', () => {
  expect(browser.errors.filter((error) => !/status of 409/.test(error))).toEqual([]);
});
