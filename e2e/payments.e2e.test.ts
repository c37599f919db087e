/**
 * Paying for the check-up in a real browser (docs/product/payments.md): from the patient area to
 * the Redsys simulator's payment page and back (card accepted, card denied, abandoned), at 1280 px
 * and 390 px, and a payment recorded at the desk in the back office's appointment list.
 */
import type { Page } from 'playwright-core';
import { signOutThroughUi } from './support/session';
import type { PaymentsApp } from '../services/payments/src/app';
import { slotAllocator } from '../test-support/slots';
import { screenshot, DESKTOP, MOBILE, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { answerDialog } from './support/dialogs';
import { BOOTSTRAP, createConfirmedPatient, startFullProduct, type Stack } from './support/product';

let stack: Stack;
let browser: Browser;
let page: Page;
const slots = slotAllocator(6);

browserOnProduct(
  () => startFullProduct(['backoffice']),
  (started) => ({ stack, browser, page } = started),
);

async function signIn(email: string, password: string) {
  // Each test starts signed out, whatever the one before left behind.
  await page.goto(`${stack.gatewayUrl}/`);
  await page.evaluate(() => window.localStorage.removeItem('token'));
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').pressSequentially(email);
  await page.getByLabel('Contraseña', { exact: true }).pressSequentially(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await answerDialog(page);
  await page.waitForURL(/\/(user|doctor)/);
}

const signOut = () => signOutThroughUi(page, stack.gatewayUrl);

/** A confirmed patient with a booked appointment the payments service already knows. */
async function bookedPatient(name: string) {
  const patient = await createConfirmedPatient(stack, name);
  const token = await stack.signIn(patient.email, patient.password);
  const booked = await stack.api.post<{ id: string }>('/dates', { date: slots.next() }, token);
  expect(booked.status).toBe(201);
  const payments = stack.components.payments!.handle as PaymentsApp;
  for (let i = 0; i < 100 && !(await payments.models.Appointment.exists({ _id: booked.body.id })); i++)
    await new Promise((resolve) => setTimeout(resolve, 100));
  return { ...patient, appointmentId: booked.body.id };
}

const flows = [
  ['card', 'Pagar con la tarjeta de prueba', DESKTOP, 'desktop', 'Pago realizado', 'Pagada'],
  ['denied', 'Tarjeta denegada', MOBILE, 'phone', 'El pago no se ha completado', 'Sin pagar'],
  [
    'abandon',
    'Cancelar y volver al comercio',
    DESKTOP,
    'desktop',
    'El pago no se ha completado',
    'Pago pendiente',
  ],
] as const;

for (const [outcome, button, viewport, label, dialogTitle, status] of flows) {
  it(`pays online from the patient area (${outcome}, ${label}): the payment page, back to /user, the state shown`, async () => {
    const patient = await bookedPatient(`Paciente Pago ${outcome}`);
    await page.setViewportSize(viewport);
    await signIn(patient.email, patient.password);
    await page.getByTestId('pay-step').waitFor();
    expect(await page.getByTestId('payment-status').textContent()).toBe('Sin pagar');
    await screenshot(page, `payments-pay-step-${outcome}-${label}`);

    await page.getByRole('button', { name: 'Pagar ahora' }).click();
    await page.getByRole('heading', { name: 'Pasarela de pago (simulador Redsys)' }).waitFor();
    expect(await page.textContent('body')).toContain('19,00 €');
    await page.getByRole('button', { name: button }).click();
    await page.waitForURL(`**/user?payment=${outcome === 'card' ? 'ok' : 'ko'}`);
    expect(await answerDialog(page)).toMatchObject({ title: dialogTitle });
    await page.waitForFunction(
      (expected) => document.querySelector('[data-testid="payment-status"]')?.textContent === expected,
      status,
    );
    if (outcome === 'card') {
      await page.getByRole('button', { name: /^Factura F\d{4}-\d{6}/ }).waitFor();
      expect(await page.getByTestId('pay-step').count()).toBe(0);
    } else {
      await page.getByTestId('pay-step').waitFor();
    }
    await screenshot(page, `payments-result-${outcome}-${label}`);
    await signOut();
  });
}

for (const [viewport, label] of [
  [DESKTOP, 'desktop'],
  [MOBILE, 'phone'],
] as const) {
  it(`records a desk payment from the appointment list (${label}): "Pendiente" becomes "Pagado"`, async () => {
    const patient = await bookedPatient(`Paciente Mostrador ${label}`);
    await page.setViewportSize(viewport);
    await signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
    await page.getByLabel('Buscar paciente').pressSequentially(`Mostrador ${label}`);
    const cobrar = page.getByRole('button', { name: `Cobrar la cita de Paciente Mostrador ${label}` });
    await cobrar.waitFor();
    const badge = page.locator(`[data-appointment="${patient.appointmentId}"]`).getByTestId('payment-badge');
    expect(await badge.textContent()).toContain('Pendiente');
    await cobrar.click();
    const dialog = page.getByRole('dialog', { name: 'Registrar un pago' });
    await dialog.waitFor();
    await dialog.getByLabel('Forma de pago').selectOption('cash');
    await dialog.getByLabel('Importe (€)').fill('');
    await dialog.getByLabel('Importe (€)').pressSequentially('19,00');
    await screenshot(page, `payments-desk-dialog-${label}`);
    await dialog.getByRole('button', { name: 'Registrar pago' }).click();
    expect(await answerDialog(page)).toMatchObject({ title: 'Pago registrado' });
    await badge.filter({ hasText: /^Pagado/ }).waitFor();
    const state = await stack.api.get(
      `/payments/appointment/${patient.appointmentId}`,
      await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password),
    );
    expect(state.body).toMatchObject({
      status: 'paid',
      payments: [{ provider: 'desk', method: 'cash', amountCents: 1900 }],
    });
    await signOut();
  });
}

for (const [viewport, label] of [
  [DESKTOP, 'desktop'],
  [MOBILE, 'phone'],
] as const) {
  it(`proposes the check-up plus the record's price fields at the desk (${label}), the amount still editable`, async () => {
    const patient = await bookedPatient(`Paciente Extras ${label}`);
    const doctorToken = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    // A driving licence renewal for 10 years with an extra report: 19 + 24,58 + 10 + 10 − 2,50.
    const values: Record<string, unknown> = {
      certificateType: 'Permiso de conducir',
      licenceGroup: 'GRUPO_1',
      weight: '78',
      height: '176',
      bloodPressure: '125/80',
      visualAcuity: '1,0',
      hearing: 'Normal',
      result: 'Apto',
      validity: '10 años',
      checkupFee: 19,
      dgtFee: '24.58',
      dgtManagement: 10,
      extraReport: '10',
      discount: '2,50',
    };
    const record = await stack.api.post(
      '/records',
      {
        userId: patient.id,
        dateId: patient.appointmentId,
        metadata: Object.fromEntries(Object.entries(values).map(([name, value]) => [name, { name, value }])),
      },
      doctorToken,
    );
    expect(record.status).toBe(201);

    await page.setViewportSize(viewport);
    await signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
    await page.getByLabel('Buscar paciente').pressSequentially(`Extras ${label}`);
    const cobrar = page.getByRole('button', { name: `Cobrar la cita de Paciente Extras ${label}` });
    await cobrar.click();
    const dialog = page.getByRole('dialog', { name: 'Registrar un pago' });
    const items = dialog.getByTestId('payment-items');
    await items.waitFor();
    const lines = await items
      .locator('li')
      .evaluateAll((nodes) =>
        nodes.map((node) =>
          [...node.querySelectorAll('span')].map((span) => span.textContent!.replace(/\s/g, ' ').trim()),
        ),
      );
    expect(lines).toEqual([
      ['Reconocimiento médico', '19,00 €'],
      ['Tasa DGT según vigencia', '24,58 €'],
      ['Gestión DGT', '10,00 €'],
      ['Informe adicional', '10,00 €'],
      ['Descuento', '-2,50 €'],
      ['Total', '61,08 €'],
    ]);
    const amount = dialog.getByLabel('Importe (€)');
    expect(await amount.inputValue()).toBe('61,08');
    // The whole dialog fits the screen, the list included.
    const box = (await dialog.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    await screenshot(page, `payments-desk-proposed-${label}`);

    // Still editable: the desk rounds it down.
    await amount.fill('');
    await amount.pressSequentially('61,00');
    await dialog.getByLabel('Forma de pago').selectOption('card');
    await dialog.getByRole('button', { name: 'Registrar pago' }).click();
    expect(await answerDialog(page)).toMatchObject({ title: 'Pago registrado' });
    const badge = page.locator(`[data-appointment="${patient.appointmentId}"]`).getByTestId('payment-badge');
    await badge.filter({ hasText: /^Pagado 61,00\s€$/ }).waitFor();
    const state = await stack.api.get(`/payments/appointment/${patient.appointmentId}`, doctorToken);
    expect(state.body).toMatchObject({
      status: 'paid',
      payments: [{ provider: 'desk', method: 'card', amountCents: 6100 }],
    });

    // Paid: "Extras" charges the record's items alone (as after a check-up paid online).
    await page.getByRole('button', { name: `Cobrar extras de la cita de Paciente Extras ${label}` }).click();
    await items.waitFor();
    expect(await items.locator('li').allTextContents()).toEqual([
      expect.stringContaining('Tasa DGT según vigencia'),
      expect.stringContaining('Gestión DGT'),
      expect.stringContaining('Informe adicional'),
      expect.stringContaining('Descuento'),
      expect.stringMatching(/^Total42,08\s€$/),
    ]);
    expect(await amount.inputValue()).toBe('42,08');
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await signOut();
  });
}

it('logged no error on any page', () => {
  expect(browser.errors).toEqual([]);
});
