import type { Page } from 'playwright-core';
import { answerDialog, type SeenDialog } from './dialogs';

/** Signs in on /login and answers the welcome dialog (returned); staff land on /doctor/appointments. */
export async function signInThroughUi(
  page: Page,
  gatewayUrl: string,
  email: string,
  password: string,
): Promise<SeenDialog> {
  await page.goto(`${gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').fill(email);
  await page.getByLabel('Contraseña', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  return answerDialog(page);
}

/** Signs out through /signOut, answers its dialog (returned) and waits for the home page. */
export async function signOutThroughUi(page: Page, gatewayUrl: string): Promise<SeenDialog> {
  await page.goto(`${gatewayUrl}/signOut`);
  const dialog = await answerDialog(page);
  await page.waitForURL(`${gatewayUrl}/`);
  return dialog;
}
