import type { Locator, Page } from 'playwright-core';
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

/** Types into a field as a person does: clears it, then one key at a time. */
export async function typeInto(field: Locator, text: string): Promise<void> {
  await field.fill('');
  await field.pressSequentially(text, { delay: 15 });
  if ((await field.inputValue()) !== text)
    throw new Error(`typed "${text}", the field shows "${await field.inputValue()}"`);
}

/** A member of staff signs in on /login typing with the keyboard, and lands on the appointment list. */
export async function staffSignsInTyping(
  page: Page,
  gatewayUrl: string,
  account: { email: string; password: string },
): Promise<void> {
  await page.goto(`${gatewayUrl}/login`);
  await typeInto(page.getByLabel('Correo Electrónico'), account.email);
  await typeInto(page.getByLabel('Contraseña', { exact: true }), account.password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await answerDialog(page);
  await page.waitForURL('**/doctor/appointments');
}
