/**
 * The kiosk from a first visit (no cookie, no session), typed key by key, at 390 px and 1280 px:
 * "Volver" on "Ya casi" and on "Identifíquese" goes back a step with what was typed kept; a known
 * patient proves the account with a code e-mailed on request (a wrong one gets a Spanish dialog) or
 * the booking code; "¡Todo listo!" always tells the appointment's date and time, the one the server
 * booked or checked in (a walk-in, a check-in, "Ser atendido ahora"); and every screen and alert the
 * kiosk shows speaks to the patient as "usted", never "tú".
 */
import type { Locator, Page } from 'playwright-core';
import { centreInstant, nextMonthWeekdays } from './support/backoffice';
import { DESKTOP, MOBILE, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { answerDialog } from './support/dialogs';
import { appointmentToday } from './support/appointments-today';
import {
  kioskBackend,
  kioskScreenshot,
  startKioskProduct,
  type KioskAppointment,
} from './support/kiosk-product';
import { BOOTSTRAP, centreDateTime, createConfirmedPatient, uniqueEmail } from './support/product';

let stack: Awaited<ReturnType<typeof startKioskProduct>>;
let backend: Awaited<ReturnType<typeof kioskBackend>>;
let browser: Browser;
let page: Page;
const days = nextMonthWeekdays();
let nextDay = 0;

browserOnProduct(
  () => startKioskProduct(),
  (started) => ({ stack, browser, page } = started),
  { consent: false },
);

beforeAll(async () => {
  backend = await kioskBackend(stack);
}, 60000);

/**
 * The familiar "tú" forms a text must not use: pronouns and possessives, verbs in the second person,
 * imperatives of the kind a kiosk would write, and enclitic imperatives ("regístrate", "acércate").
 */
const TU_FORMS: RegExp[] = [
  /(?<![\p{L}])(tu|tus|te|ti|contigo|tuyo|tuya)(?![\p{L}])/iu,
  /(?<![\p{L}])(eres|estás|serás|seras|tienes|puedes|quieres|debes|has|vas|sabes)(?![\p{L}])/iu,
  /(?<![\p{L}])(pulsa|introduce|escribe|elige|toca|espera|revisa|confirma|vuelve|continúa|selecciona|inténtalo|intenta|contacta|ingresa|completa|rellena|verifica|acude|ven|mira|recuerda)(?![\p{L}])/iu,
  /(?<![\p{L}])\p{L}*[áéíóú]\p{L}*(te|telo|tela)(?![\p{L}])/iu,
];

/** The tú forms found in a text (empty when it speaks as "usted"). */
function tuFormsIn(text: string): string[] {
  return TU_FORMS.flatMap((form) => text.match(new RegExp(form.source, 'giu')) ?? []);
}

const seenScreens = new Set<string>();

/** Every word on the kiosk's card (and any alert open over it) is "usted". */
async function expectUsted(screen: string): Promise<void> {
  const card = await page.locator('.kiosk-card').innerText();
  const fields = await page
    .locator('.kiosk-card input')
    .evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).placeholder).join(' '));
  const alert = page.locator('.swal2-popup.swal2-show');
  const alertText = (await alert.isVisible()) ? await alert.innerText() : '';
  const text = `${card}\n${fields}\n${alertText}`;
  expect({ screen, tu: tuFormsIn(text) }).toEqual({ screen, tu: [] });
  seenScreens.add(screen);
}

const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const button = (name: string) => page.getByRole('button', { name, exact: true });
const appointmentLine = () => page.getByTestId('kiosk-appointment-time');

/** Types like a person (30–80 ms between keys) and checks the field kept every character. */
async function typeInto(field: Locator, text: string, shown = text): Promise<void> {
  await field.click();
  await field.fill('');
  await field.pressSequentially(text, { delay: 30 + Math.floor(Math.random() * 50) });
  expect(await field.inputValue()).toBe(shown);
}

/** Waits for a heading; an alert instead fails at once, saying what it was. */
async function expectHeading(name: string): Promise<void> {
  const alert = page.locator('.swal2-popup.swal2-show');
  await heading(name).or(alert).first().waitFor();
  if (await alert.isVisible()) {
    const shown = (await alert.innerText()).replace(/\s+/g, ' ');
    throw new Error(
      `an alert instead of "${name}": ${shown}; logged: ${browser.errors.slice(-3).join(' | ')}`,
    );
  }
}

async function submitEmail(email: string): Promise<void> {
  await expectHeading('Bienvenido');
  await typeInto(page.getByLabel('Correo Electrónico'), email);
  await button('Continuar').click();
  await expectHeading('Identifíquese');
}

/** Types a code on "Identifíquese" and presses "Continuar". */
async function submitCode(code: string): Promise<void> {
  await typeInto(page.getByLabel('Código', { exact: true }), code);
  await button('Continuar').click();
}

/** The button is a touch target inside the screen (no scrolling needed to reach it). */
async function expectReachable(target: Locator): Promise<void> {
  const box = await target.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box!.height).toBeGreaterThanOrEqual(48);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
}

/** "¡Todo listo!" names the appointment's day and time as the server has them. */
async function expectToldTime(appointment: KioskAppointment | { date: string }): Promise<void> {
  await expectHeading('¡Todo listo!');
  const { date, time } = centreDateTime(appointment.date);
  expect((await appointmentLine().textContent())?.trim()).toBe(`Su cita es hoy, ${date}, a las ${time}`);
  await expectUsted('¡Todo listo!');
  await kioskScreenshot(page, 'kiosk-complete-time');
  await button('Hecho').click();
  await expectHeading('Bienvenido');
  expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe('');
}

/** The patient's one active appointment (booked or checked in), as the back end has it. */
async function activeAppointment(patientId: string): Promise<KioskAppointment> {
  const active = (await backend.history(patientId)).filter((a) => ['booked', 'checkedIn'].includes(a.status));
  expect(active).toHaveLength(1);
  return active[0];
}

describe.each([
  ['phone', MOBILE],
  ['desktop', DESKTOP],
] as const)('the kiosk on the %s', (label, viewport) => {
  beforeAll(async () => {
    // A first visit: no cookie (the consent banner comes back), no session.
    await page.setViewportSize(viewport);
    await page.context().clearCookies();
    await page.goto(`${stack.gatewayUrl}/`);
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${stack.gatewayUrl}/login`);
    await typeInto(page.getByLabel('Correo Electrónico'), BOOTSTRAP.kiosk.email);
    await typeInto(page.getByLabel('Contraseña', { exact: true }), BOOTSTRAP.kiosk.password);
    await page.getByRole('button', { name: 'Acceder' }).click();
    await answerDialog(page);
    await page.waitForURL('**/onboarding');
    // The banner covers the card's buttons on a phone: answered as a person would.
    const accept = page.locator('#cc-main .cm__btn[data-role="all"]');
    await accept.waitFor({ state: 'visible' });
    await accept.click();
    await page.locator('#cc-main .cm').waitFor({ state: 'hidden' });
    await expectUsted('Bienvenido');
  }, 60000);

  // Each journey starts on an empty "Bienvenido", whatever the previous one left.
  beforeEach(async () => {
    await page.goto(`${stack.gatewayUrl}/onboarding`);
  });

  it('"Volver" on "Ya casi" and "Identifíquese" keeps the e-mail, name and phone typed; the walk-in\'s time is told', async () => {
    const email = uniqueEmail(`way-back-${label}`);
    await submitEmail(email);
    await expectUsted('Identifíquese');
    await kioskScreenshot(page, 'kiosk-identify');
    await button('Es mi primera visita').click();
    await expectHeading('Ya casi');
    await typeInto(page.getByLabel('Nombre Completo'), 'Guacimara Perera León');
    await typeInto(page.getByLabel('Teléfono'), '699 111 222', '+34 699 111 222');
    await expectUsted('Ya casi');
    await expectReachable(button('Volver'));
    await expectReachable(button('Continuar con Cita'));
    await kioskScreenshot(page, 'kiosk-details-back');

    await button('Volver').click();
    await expectHeading('Identifíquese');
    await button('Volver').click();
    await expectHeading('Bienvenido');
    expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe(email);
    // Nothing was saved by going back.
    expect(await backend.patient(email)).toBeUndefined();

    await button('Continuar').click();
    await expectHeading('Identifíquese');
    await button('Es mi primera visita').click();
    await expectHeading('Ya casi');
    expect(await page.getByLabel('Nombre Completo').inputValue()).toBe('Guacimara Perera León');
    expect(await page.getByLabel('Teléfono').inputValue()).toBe('+34 699 111 222');

    // A phone the server refuses: the alert speaks as "usted" too.
    await typeInto(page.getByLabel('Teléfono'), '12345', '123 45');
    await button('Continuar con Cita').click();
    await page.locator('.swal2-popup.swal2-show').waitFor();
    await expectUsted('alert: No se pudieron guardar sus datos.');
    expect((await answerDialog(page)).title).toBe('No se pudieron guardar sus datos.');

    await typeInto(page.getByLabel('Teléfono'), '699 111 222', '+34 699 111 222');
    await button('Continuar con Cita').click();
    await expectHeading('¡Todo listo!');
    const saved = await backend.patient(email);
    expect(saved).toMatchObject({ name: 'Guacimara Perera León', phone: '34699111222' });
    await expectToldTime(await activeAppointment(saved!.id));
  });

  it("a patient checked in for today's appointment reads its date and time", async () => {
    const name = 'Tibiabin Suárez Alonso';
    const patient = { ...(await createConfirmedPatient(stack, name)), name };
    const today = await appointmentToday(stack, patient);
    await submitEmail(patient.email);
    await submitCode(today.bookingCode);
    await expectToldTime(today);
    expect(await activeAppointment(patient.id)).toMatchObject({ id: today.id, status: 'checkedIn' });
  });

  it('"Ser atendido ahora" ends on the walk-in\'s date and time; "Mantener mi cita" speaks as "usted"', async () => {
    const name = 'Ancor Medina Trujillo';
    const patient = { ...(await createConfirmedPatient(stack, name)), name };
    const token = await stack.signIn(patient.email, patient.password);
    const booked = await stack.api.post<{ id: string; bookingCode: string }>(
      '/dates',
      { date: centreInstant(days[nextDay++ % days.length], '11:00') },
      token,
    );
    expect(booked.status).toBe(201);

    await submitEmail(patient.email);
    await submitCode(booked.body.bookingCode);
    await expectHeading('Ya tiene una cita');
    await expectUsted('Ya tiene una cita');
    await button('Mantener mi cita').click();
    await expectHeading('¡Hasta pronto!');
    await expectUsted('¡Hasta pronto!');
    await button('Hecho').click();

    await submitEmail(patient.email);
    await submitCode(booked.body.bookingCode);
    await expectHeading('Ya tiene una cita');
    await button('Ser atendido ahora').click();
    await expectHeading('¡Todo listo!');
    const walkIn = await activeAppointment(patient.id);
    expect(walkIn.id).not.toBe(booked.body.id);
    await expectToldTime(walkIn);
  });

  it('a known patient asks for a code by e-mail, a wrong one is refused in Spanish, the right one checks in', async () => {
    const name = 'Iballa Rodríguez Mesa';
    const patient = { ...(await createConfirmedPatient(stack, name)), name };
    const before = await backend.codeMails(patient.email);
    await submitEmail(patient.email);
    await button('Enviarme un código por correo').click();
    await page.locator('.swal2-popup.swal2-show').waitFor();
    await expectUsted('alert: Código enviado');
    expect((await answerDialog(page)).title).toBe('Código enviado');
    const code = await backend.nextCode(patient.email, before);
    expect(await page.getByTestId('kiosk-identify-help').textContent()).toContain(patient.email);

    await submitCode(code === '000000' ? '111111' : '000000');
    await page.locator('.swal2-popup.swal2-show').waitFor();
    await expectUsted('alert: No se pudo comprobar el código.');
    expect((await answerDialog(page)).title).toBe('No se pudo comprobar el código.');
    await expectHeading('Identifíquese');

    await submitCode(code);
    await expectHeading('¡Todo listo!');
    await expectToldTime(await activeAppointment(patient.id));
  });

  it('every kiosk screen was read for "tú" forms', () => {
    expect([...seenScreens].sort()).toEqual(
      [
        'Bienvenido',
        'Identifíquese',
        'alert: Código enviado',
        'alert: No se pudo comprobar el código.',
        'Ya casi',
        'alert: No se pudieron guardar sus datos.',
        '¡Todo listo!',
        'Ya tiene una cita',
        '¡Hasta pronto!',
      ].sort(),
    );
    // The scan itself finds the forms it is meant to find.
    expect(tuFormsIn('En breve seras atendido. Gracias por tu paciencia. Pulsa aquí, regístrate.')).toEqual([
      'tu',
      'seras',
      'Pulsa',
      'regístrate',
    ]);
    expect(tuFormsIn('En breve le atenderá nuestro personal. Gracias por su paciencia.')).toEqual([]);
  });
});
