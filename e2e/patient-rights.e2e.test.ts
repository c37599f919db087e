/**
 * The patient's rights (docs/product/rights-and-access-trail.md#patient-rights) in real Chromium on a phone:
 * "Mis datos" downloads a copy of the patient's data (PDF and JSON), and "Eliminar mi cuenta" (password
 * asked) erases the account: the session ends and the password no longer opens it.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { signInThroughUi } from './support/session';
import { screenshot, MOBILE } from './support/browser';
import { answerDialog } from './support/dialogs';
import { browserOnProduct } from './support/browser-product';
import { createConfirmedPatient, startFullProduct, type Stack } from './support/product';

let stack: Stack;
let page: Page;

// Records too: the copy of the data includes the clinical records.
browserOnProduct(
  () => startFullProduct([]),
  (started) => ({ stack, page } = started),
  { viewport: MOBILE },
);

it('downloads the patient’s data and erases the account with the password', async () => {
  const patient = await createConfirmedPatient(stack, 'Rosa Derechos Medina');
  await signInThroughUi(page, stack.gatewayUrl, patient.email, patient.password);
  await page.waitForURL('**/user');
  await page.getByRole('heading', { name: 'Mis datos' }).scrollIntoViewIfNeeded();
  await screenshot(page, 'my-data-phone');

  const [pdf] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar mis datos (PDF)' }).click(),
  ]);
  expect(pdf.suggestedFilename()).toMatch(/^mis-datos-\d{4}-\d{2}-\d{2}\.pdf$/);
  expect(
    fs
      .readFileSync((await pdf.path())!)
      .subarray(0, 5)
      .toString(),
  ).toBe('%PDF-');
  const [json] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Descargar en formato JSON' }).click(),
  ]);
  const data = JSON.parse(fs.readFileSync((await json.path())!, 'utf8'));
  expect(data.profile).toMatchObject({ id: patient.id, email: patient.email, name: 'Rosa Derechos Medina' });

  await page.getByRole('button', { name: 'Eliminar mi cuenta' }).click();
  // No password: the field says so at once, and the irreversible warning is not shown.
  await page.getByRole('button', { name: 'Eliminar mi cuenta definitivamente' }).click();
  await page.getByText('La contraseña es obligatoria').waitFor();
  expect(await page.locator('.swal2-popup').count()).toBe(0);
  await page.getByLabel('Contraseña', { exact: true }).pressSequentially('no-es-mi-clave', { delay: 40 });
  await page.getByRole('button', { name: 'Eliminar mi cuenta definitivamente' }).click();
  expect(await answerDialog(page, 'confirm')).toMatchObject({ title: '¿Eliminar su cuenta?' });
  await page.getByText('La contraseña no es correcta').waitFor();
  await screenshot(page, 'my-data-erase-phone');
  await page.getByLabel('Contraseña', { exact: true }).fill(patient.password);
  await page.getByRole('button', { name: 'Eliminar mi cuenta definitivamente' }).click();
  await answerDialog(page, 'confirm');
  expect(await answerDialog(page)).toMatchObject({ title: 'Cuenta eliminada' });
  await page.waitForURL(`${stack.gatewayUrl}/`);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();

  const again = await stack.api.post('/auth/signIn', { email: patient.email, password: patient.password });
  expect(again.status).toBe(401);
});
