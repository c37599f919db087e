/**
 * Every form takes keyboard typing at a person's pace from a first visit (no cookie, so the consent
 * banner appears while the first field is being typed into): sign-up, sign-in (the patient then
 * reaches their area), the kiosk's two steps, "Registrar Paciente", "Personal" and the account's
 * erasure password, at 390 px and 1280 px. Each value typed key by key must be kept whole; the
 * banner must never take the focus from the field, and a dialog must be drawn above the banner.
 */
import type { Locator, Page } from 'playwright-core';
import { DESKTOP, MOBILE } from './support/browser';
import { answerDialog } from './support/dialogs';
import { browserOnProduct } from './support/browser-product';
import { BOOTSTRAP, startFullProduct, uniqueEmail, type Stack } from './support/product';

let stack: Stack;
let page: Page;

browserOnProduct(
  // Outside production no role must set up a second factor (MFA_REQUIRED_ROLES unset).
  () => startFullProduct(['backoffice', 'kiosk']),
  (started) => ({ stack, page } = started),
  { consent: false },
);

/** The consent banner's box. */
const BANNER = () => page.locator('#cc-main .cm');

/** A first visit: no cookie (the consent banner comes back), no session. */
async function firstVisit(path: string): Promise<void> {
  await page.context().clearCookies();
  await page.goto(`${stack.gatewayUrl}/`);
  await page.evaluate(() => localStorage.clear());
  await page.goto(`${stack.gatewayUrl}${path}`);
}

/** Types like a person (30–80 ms between keys) and checks the field kept every character. */
async function typeInto(field: Locator, text: string, shown = text): Promise<void> {
  await field.click();
  await field.pressSequentially(text, { delay: 30 + Math.floor(Math.random() * 50) });
  expect(await field.inputValue()).toBe(shown);
}

/** The banner showed up meanwhile and the field typed into still has the focus. */
async function bannerShownFocusKept(field: Locator): Promise<void> {
  await BANNER().waitFor({ state: 'visible' });
  expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
}

async function acceptBanner(): Promise<void> {
  await page.locator('#cc-main .cm__btn[data-role="all"]').click();
  await BANNER().waitFor({ state: 'hidden' });
}

describe.each([
  ['phone', MOBILE],
  ['desktop', DESKTOP],
] as const)('typing on the %s', (label, viewport) => {
  beforeAll(async () => {
    await page.setViewportSize(viewport);
  });

  it('sign-up keeps the name, phone, e-mail and password typed key by key; the dialog is above the banner', async () => {
    await firstVisit('/signup');
    const email = uniqueEmail(`typing-signup-${label}`);
    const name = page.getByLabel('Nombre Completo');
    await typeInto(name, 'Nayra Santana Ramos');
    await bannerShownFocusKept(name);
    await typeInto(page.getByLabel('Número de Teléfono'), '+34 699 111 222');
    await typeInto(page.getByLabel('Correo Electrónico'), email);
    await typeInto(page.getByLabel('Contraseña', { exact: true }), 'Contraseña-Segura-1');
    await page.getByRole('button', { name: 'Enviar' }).click();

    // The success dialog opens while the banner is still there: the dialog is on top of it.
    const popup = page.locator('.swal2-popup.swal2-show');
    await popup.waitFor();
    await BANNER().waitFor({ state: 'visible' });
    const covered = await page.locator('#cc-main .cm').evaluate((banner) => {
      const box = banner.getBoundingClientRect();
      const top = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return !banner.contains(top);
    });
    expect(covered).toBe(true);
    expect((await answerDialog(page)).title).toBe('Registro exitoso');
    await page.waitForURL('**/user');
    await acceptBanner();
  });

  it('sign-in on the typed e-mail and password reaches the patient area', async () => {
    // A patient of their own, registered through the API, signing in from a first visit.
    const email = uniqueEmail(`typing-signin-${label}`);
    const password = 'Contraseña-Segura-1';
    const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    const created = await stack.api.post(
      '/auth/doctor/patient/create',
      { name: 'Elena Typing Vera', phone: '612345678', email, password },
      doctor,
    );
    expect(created.status).toBe(201);

    await firstVisit('/login');
    const field = page.getByLabel('Correo Electrónico');
    await typeInto(field, email);
    await bannerShownFocusKept(field);
    await typeInto(page.getByLabel('Contraseña', { exact: true }), password);
    await page.keyboard.press('Enter');
    await answerDialog(page);
    await page.waitForURL('**/user');
    await acceptBanner();
  });

  it('the kiosk keeps the e-mail, code, name and phone typed key by key', async () => {
    await firstVisit('/login');
    await typeInto(page.getByLabel('Correo Electrónico'), BOOTSTRAP.kiosk.email);
    await typeInto(page.getByLabel('Contraseña', { exact: true }), BOOTSTRAP.kiosk.password);
    await page.getByRole('button', { name: 'Acceder' }).click();
    await answerDialog(page);
    await page.waitForURL('**/onboarding');
    // Whoever sets the terminal up answers the banner once; on a phone it covers the lower buttons.
    await acceptBanner();
    await page.getByRole('heading', { level: 1, name: 'Bienvenido', exact: true }).waitFor();
    await typeInto(page.getByLabel('Correo Electrónico'), uniqueEmail(`typing-kiosk-${label}`));
    await page.getByRole('button', { name: 'Continuar', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Identifíquese', exact: true }).waitFor();
    await typeInto(page.getByLabel('Código', { exact: true }), 'kxr 4t7', 'kxr 4t7');
    await page.getByRole('button', { name: 'Es mi primera visita', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Ya casi', exact: true }).waitFor();
    await typeInto(page.getByLabel('Nombre Completo'), 'Carmen Suárez Déniz');
    await typeInto(page.getByLabel('Teléfono'), '699 111 222', '+34 699 111 222');
    if (await BANNER().isVisible()) await acceptBanner();
  });

  it('"Registrar Paciente" and "Personal" keep what the doctor and the admin type', async () => {
    await firstVisit('/login');
    await typeInto(page.getByLabel('Correo Electrónico'), BOOTSTRAP.admin.email);
    await typeInto(page.getByLabel('Contraseña', { exact: true }), BOOTSTRAP.admin.password);
    await page.getByRole('button', { name: 'Acceder' }).click();
    await answerDialog(page);
    await page.waitForURL('**/doctor/**');
    // On a phone the banner sits over the forms' buttons: the admin answers it, as a person would.
    await acceptBanner();

    await page.goto(`${stack.gatewayUrl}/doctor/patient/create`);
    const patientEmail = uniqueEmail(`typing-staff-${label}`);
    await typeInto(page.getByLabel('Nombre Completo'), 'Irene Quintana Ruiz');
    await typeInto(page.getByLabel('Número de Teléfono'), '+34 699 111 222');
    await typeInto(page.getByLabel('Correo Electrónico'), patientEmail);
    await page.getByRole('button', { name: 'Registrar Paciente' }).click();
    expect((await answerDialog(page)).title).toBe('Paciente Registrado');

    await page.goto(`${stack.gatewayUrl}/doctor/staff`);
    const staffEmail = uniqueEmail(`typing-admin-${label}`);
    await typeInto(page.getByLabel('Nombre'), 'Dña. Pilar Ojeda');
    await typeInto(page.getByLabel('Correo Electrónico'), staffEmail);
    await page.getByLabel('Rol').selectOption('ADMIN');
    await page.getByRole('button', { name: 'Enviar invitación' }).click();
    expect(await answerDialog(page)).toMatchObject({ title: 'Invitación enviada' });

    // This configuration asks no role for a second factor: the invitation promises none, and its
    // page says "Crear contraseña" like the e-mail's button.
    const [mail] = await stack.mail.waitForMessagesTo(staffEmail, 1);
    expect(mail!.Text).toContain('Crear mi contraseña');
    expect(mail!.Text).not.toContain('dos pasos');
    const link = /\/reset-password\/[A-Za-z0-9_-]+\?invitation=1/.exec(mail!.Text)![0];
    await page.goto(`${stack.gatewayUrl}/signOut`);
    await answerDialog(page);
    await page.goto(`${stack.gatewayUrl}${link}`);
    await page.getByRole('heading', { name: 'Crear contraseña' }).waitFor();
    await typeInto(page.getByLabel('Nueva Contraseña'), 'gestion-de-manana-22');
    await typeInto(page.getByLabel('Repetir Contraseña'), 'gestion-de-manana-22');
  });
});
