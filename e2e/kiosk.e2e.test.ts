/**
 * The kiosk (docs/product/kiosk.md) in real Chromium against the running product, signed in as the
 * kiosk account, on both portrait terminals (768×1024, 1080×1920): new patients ("Es mi primera
 * visita") and known ones, who prove the account is theirs with a code e-mailed on request or the
 * booking code of their appointment; only the missing details asked, immediate booking checked
 * through the API, the alerts, and the back end going down. Fields are typed key by key.
 */
import type { Page, Request } from 'playwright-core';
import { launchBrowser, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { acceptCookies, answerDialog, fieldError } from './support/dialogs';
import {
  kioskBackend,
  kioskScreenshot,
  signInAsKiosk,
  startKioskProduct,
  TERMINALS,
  type KioskAppointment,
} from './support/kiosk-product';
import { KIOSK_PROOF_MESSAGES } from '@crm/contracts';
import { BOOTSTRAP, centreDateTime, uniqueEmail } from './support/product';

let stack: Awaited<ReturnType<typeof startKioskProduct>>;
let backend: Awaited<ReturnType<typeof kioskBackend>>;
let browser: Browser;
let page: Page;

browserOnProduct(
  () => startKioskProduct(),
  (started) => ({ stack, browser, page } = started),
  { viewport: TERMINALS[0], consent: false },
);

beforeAll(async () => {
  backend = await kioskBackend(stack);
});

/** Matches one call of the API, whatever its query string. */
const apiPath = (path: string) => (url: URL) => url.pathname === `/api/v1${path}`;
const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const button = (name: string) => page.getByRole('button', { name, exact: true });

/** Types the e-mail key by key on "Bienvenido" and goes on to "Identifíquese". */
async function submitEmail(email: string): Promise<void> {
  await heading('Bienvenido').waitFor();
  const field = page.getByLabel('Correo Electrónico');
  await field.fill('');
  await field.pressSequentially(email);
  await button('Continuar').click();
  await heading('Identifíquese').waitFor();
}

/** Types a code on "Identifíquese" and presses "Continuar". */
async function typeCode(code: string): Promise<void> {
  const field = page.getByLabel('Código', { exact: true });
  await field.fill('');
  await field.pressSequentially(code);
  await button('Continuar').click();
}

/** "Enviarme un código por correo", then the code read from the e-mail, as the person would. */
async function askEmailedCode(email: string): Promise<string> {
  const before = await backend.codeMails(email);
  await button('Enviarme un código por correo').click();
  expect((await answerDialog(page)).title).toBe('Código enviado');
  return backend.nextCode(email, before);
}

/** The e-mailed code asked for and typed in. */
async function identifyByEmailedCode(email: string): Promise<void> {
  await typeCode(await askEmailedCode(email));
}

/** "Es mi primera visita": the details of a new patient. */
async function firstVisit(): Promise<void> {
  await button('Es mi primera visita').click();
  await heading('Ya casi').waitFor();
}

/**
 * The kiosk booked for about one minute after the touch (docs/product/kiosk.md#booking-time), only
 * once, and checked the patient in (the patient is at the centre).
 */
async function expectOneWalkIn(patientId: string, touchedAt: number): Promise<KioskAppointment> {
  const appointments = await backend.history(patientId);
  expect(appointments).toHaveLength(1);
  const [appointment] = appointments;
  expect(appointment).toMatchObject({ status: 'checkedIn', pacientId: patientId, channel: 'kiosk' });
  const offset = new Date(appointment.date).getTime() - touchedAt;
  expect(offset).toBeGreaterThan(55_000);
  expect(offset).toBeLessThan(75_000);
  return appointment;
}

/** Every button and field of the card is a comfortable touch target. */
async function expectLargeTargets(): Promise<void> {
  const targets = page.locator('.kiosk-card button:visible, .kiosk-card input:visible');
  expect(await targets.count()).toBeGreaterThan(0);
  for (const target of await targets.all()) {
    const box = await target.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(48);
    expect(box!.width).toBeGreaterThanOrEqual(48);
  }
}

/** Waits for "¡Todo listo!"; an alert instead fails at once, saying what it was (and what was logged). */
async function expectBooked(): Promise<void> {
  const alert = page.locator('.swal2-popup.swal2-show');
  await heading('¡Todo listo!').or(alert).first().waitFor();
  if (await alert.isVisible()) {
    const shown = (await alert.innerText()).replace(/\s+/g, ' ');
    throw new Error(
      `an alert instead of "¡Todo listo!": ${shown}; logged: ${browser.errors.slice(-3).join(' | ')}`,
    );
  }
}

async function pressDone(): Promise<void> {
  await button('Hecho').click();
  await heading('Bienvenido').waitFor();
  await page.waitForURL(/\/onboarding$/);
  expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe('');
}

it('sends a visitor who is not signed in from /onboarding to /login', async () => {
  await page.goto(`${stack.gatewayUrl}/`);
  await acceptCookies(page);
  await page.goto(`${stack.gatewayUrl}/onboarding`);
  await page.waitForURL('**/login');
  await button('Acceder').waitFor();
});

it('signs the kiosk account in onto /onboarding, on the e-mail step', async () => {
  await signInAsKiosk(page, stack.gatewayUrl);
  await heading('Bienvenido').waitFor();
  const email = page.getByLabel('Correo Electrónico');
  expect(await email.getAttribute('type')).toBe('email');
  expect(await email.getAttribute('placeholder')).toBe('Correo Electrónico');
  expect(await email.getAttribute('required')).not.toBeNull();
  expect(await email.getAttribute('autocomplete')).toBe('off');
  // The service-account layout has no site header.
  expect(await page.locator('header').count()).toBe(0);
});

it('sends any deeper path back to /onboarding', async () => {
  await page.goto(`${stack.gatewayUrl}/onboarding/somewhere/else`);
  await page.waitForURL(/\/onboarding$/);
  await heading('Bienvenido').waitFor();
});

describe.each(TERMINALS)('on a $width×$height terminal', (terminal) => {
  beforeAll(async () => {
    await page.setViewportSize(terminal);
    await page.goto(`${stack.gatewayUrl}/onboarding`);
  });

  it('asks a new patient ("Es mi primera visita") for name and phone, creates the patient and books at once', async () => {
    const email = uniqueEmail('kiosk-new');
    await submitEmail(email);
    const code = page.getByLabel('Código', { exact: true });
    expect(await code.getAttribute('autocomplete')).toBe('off');
    await expectLargeTargets();
    await kioskScreenshot(page, 'kiosk-identify');
    await firstVisit();

    const name = page.getByLabel('Nombre Completo');
    const phone = page.getByLabel('Teléfono');
    expect(await name.getAttribute('placeholder')).toBe('Nombre Completo');
    expect(await phone.getAttribute('placeholder')).toBe('Teléfono');
    expect(await phone.getAttribute('type')).toBe('tel');
    await name.pressSequentially('Carmen Suárez Déniz');
    await phone.pressSequentially('612 345 678');
    expect(await phone.inputValue()).toBe('+34 612 345 678');
    await expectLargeTargets();
    await kioskScreenshot(page, 'kiosk-details');

    const touchedAt = Date.now();
    await button('Continuar con Cita').click();
    await expectBooked();
    await page
      .getByText('En breve le atenderá nuestro personal. Gracias por su paciencia.', { exact: true })
      .waitFor();
    await expectLargeTargets();
    await kioskScreenshot(page, 'kiosk-complete');

    const patient = await backend.patient(email);
    expect(patient).toMatchObject({ name: 'Carmen Suárez Déniz', email, phone: '34612345678' });
    await expectOneWalkIn(patient!.id, touchedAt);

    await pressDone();
    await expectLargeTargets();
    await kioskScreenshot(page, 'kiosk-email');
  });

  it('books a known patient with name and phone once the e-mailed code matches, without asking anything', async () => {
    const patient = await backend.completePatient('Antonio Perdomo Rivero');
    await submitEmail(patient.email);
    const code = await askEmailedCode(patient.email);
    // The touch that books: waiting for the e-mail does not count in "one minute from now".
    const touchedAt = Date.now();
    await typeCode(code);
    await expectBooked();
    expect(await page.getByLabel('Nombre Completo').count()).toBe(0);
    await expectOneWalkIn(patient.id, touchedAt);
    await pressDone();
  });

  it('asks a known patient without phone only for the phone, saves it and books', async () => {
    const patient = await backend.patientWithoutPhone('Rosa Cabrera León');
    await submitEmail(patient.email!);
    await identifyByEmailedCode(patient.email!);
    await heading('Ya casi').waitFor();
    expect(await page.getByLabel('Nombre Completo').count()).toBe(0);
    await page.getByLabel('Teléfono').pressSequentially('699111222');
    await kioskScreenshot(page, 'kiosk-details-phone-only');

    const touchedAt = Date.now();
    await button('Continuar con Cita').click();
    await expectBooked();
    expect(await backend.patient(patient.email!)).toMatchObject({
      id: patient.id,
      name: 'Rosa Cabrera León',
      phone: '34699111222',
    });
    await expectOneWalkIn(patient.id, touchedAt);
    await pressDone();
  });

  it('checks in a patient whose appointment is now with its booking code, tells its time and books nothing more', async () => {
    const patient = await backend.completePatient('Pedro Santana Ojeda');
    const existing = await backend.bookWalkIn({ id: patient.id, email: patient.email! });
    await submitEmail(patient.email);
    // Typed as a person may: lower case, with a space.
    await typeCode(`${existing.bookingCode!.slice(0, 3).toLowerCase()} ${existing.bookingCode!.slice(3)}`);

    // The appointment of now is checked in (docs/product/kiosk.md#arrival), not refused with an alert.
    await expectBooked();
    const { date, time } = centreDateTime(existing.date);
    expect((await page.getByTestId('kiosk-appointment-time').textContent())?.trim()).toBe(
      `Su cita es hoy, ${date}, a las ${time}`,
    );
    await expectLargeTargets();
    await kioskScreenshot(page, 'kiosk-already-booked-checked-in');

    const appointments = await backend.history(patient.id);
    expect(appointments.map((a) => [a.id, a.status])).toEqual([[existing.id, 'checkedIn']]);
    await pressDone();
  });
});

describe('while a request runs (1080×1920)', () => {
  beforeAll(async () => {
    await page.setViewportSize(TERMINALS[1]);
    await page.goto(`${stack.gatewayUrl}/onboarding`);
  });
  afterEach(async () => {
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('covers the card with "Cargando..." while a code is sent and shows "Guardando…" while saving', async () => {
    const slow = (url: (url: URL) => boolean) =>
      page.route(url, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1200));
        await route.continue();
      });
    await slow(apiPath('/users/onboarding/code'));
    await slow(apiPath('/users/onboarding'));

    await submitEmail(uniqueEmail('kiosk-slow'));
    await button('Enviarme un código por correo').click();
    const overlay = page.getByTestId('kiosk-busy');
    await overlay.waitFor();
    expect((await overlay.textContent())?.trim()).toBe('Cargando...');
    expect(await overlay.locator('.wk-spinner').count()).toBe(1);
    await kioskScreenshot(page, 'kiosk-busy');
    // The same answer whatever the address (this one has no account).
    expect((await answerDialog(page)).title).toBe('Código enviado');
    await overlay.waitFor({ state: 'detached' });
    await firstVisit();

    await page.getByLabel('Nombre Completo').pressSequentially('Elena Marrero Vega');
    await page.getByLabel('Teléfono').pressSequentially('612000111');
    await button('Continuar con Cita').click();
    await button('Guardando…').waitFor();
    await overlay.waitFor();
    await expectBooked();
    await pressDone();
  });

  it('animates each step in 0.25 s, and not at all when the terminal asks for reduced motion', async () => {
    const animation = () =>
      page
        .locator('.kiosk-step')
        .evaluate((step) => [getComputedStyle(step).animationName, getComputedStyle(step).animationDuration]);
    expect(await animation()).toEqual(['kiosk-step-in', '0.25s']);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect((await animation())[0]).toBe('none');
    await page.emulateMedia({ reducedMotion: null });
  });
});

describe('the kiosk alerts, staying on the step', () => {
  const alertsEmail = uniqueEmail('kiosk-alerts');
  beforeAll(async () => {
    await page.setViewportSize(TERMINALS[0]);
    await page.goto(`${stack.gatewayUrl}/onboarding`);
  });
  afterEach(async () => {
    await page.unrouteAll({ behavior: 'wait' });
  });

  it('"No se pudo enviar el código." when the code cannot be asked for', async () => {
    await page.route(apiPath('/users/onboarding/code'), (route) => route.abort('connectionrefused'));
    await submitEmail(alertsEmail);
    await button('Enviarme un código por correo').click();
    expect((await answerDialog(page)).title).toBe('No se pudo enviar el código.');
    await heading('Identifíquese').waitFor();
  });

  it('"No se pudo comprobar el código." with the server’s Spanish reason for a code that does not match', async () => {
    await typeCode('000000');
    expect(await answerDialog(page)).toEqual({
      title: 'No se pudo comprobar el código.',
      text: KIOSK_PROOF_MESSAGES.wrong,
    });
    expect(await fieldError(page, 'Código')).toBe(KIOSK_PROOF_MESSAGES.wrong);
    await heading('Identifíquese').waitFor();
    await kioskScreenshot(page, 'kiosk-wrong-code');
  });

  it('"No se pudieron guardar sus datos." when saving fails, with the server reason under the field', async () => {
    await firstVisit();
    await page.getByLabel('Nombre Completo').pressSequentially('Luis Betancor Gil');
    await page.getByLabel('Teléfono').pressSequentially('12345');
    await button('Continuar con Cita').click();
    expect(await answerDialog(page)).toEqual({
      title: 'No se pudieron guardar sus datos.',
      text: 'El teléfono no es válido',
    });
    expect(await fieldError(page, 'Teléfono')).toBe('El teléfono no es válido');
    await heading('Ya casi').waitFor();
    expect(await page.getByLabel('Nombre Completo').inputValue()).toBe('Luis Betancor Gil');

    await page.route(apiPath('/users/onboarding'), (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"message":"boom"}' }),
    );
    await page.getByLabel('Teléfono').fill('612345678');
    await button('Continuar con Cita').click();
    expect(await answerDialog(page)).toEqual({ title: 'No se pudieron guardar sus datos.', text: '' });
    await heading('Ya casi').waitFor();
    await button('Continuar con Cita').waitFor();
  });

  it('"No se encontró la ID del paciente para agendar la cita." when the saved patient has no id', async () => {
    await page.route(apiPath('/users/onboarding'), (route) =>
      route.fulfill({ status: 201, contentType: 'application/json', body: '{"data":{}}' }),
    );
    await button('Continuar con Cita').click();
    expect((await answerDialog(page)).title).toBe('No se encontró la ID del paciente para agendar la cita.');
    await heading('Ya casi').waitFor();
  });

  it('saves once and, after a failed booking, retries as an update without a second patient', async () => {
    const saves: string[] = [];
    const recordSave = (request: Request) => {
      if (apiPath('/users/onboarding')(new URL(request.url()))) saves.push(request.postDataJSON().operation);
    };
    page.on('request', recordSave);
    let bookings = 0;
    await page.route(apiPath('/dates/service'), (route) =>
      ++bookings === 1
        ? route.fulfill({ status: 503, contentType: 'application/json', body: '{"message":"down"}' })
        : route.continue(),
    );
    await button('Continuar con Cita').click();
    expect((await answerDialog(page)).title).toBe('No se pudo registrar la cita.');
    await heading('Ya casi').waitFor();

    await button('Continuar con Cita').click();
    await expectBooked();
    page.off('request', recordSave);
    expect(saves).toEqual(['create', 'update']);
    expect(bookings).toBe(2);
    const patient = await backend.patient(alertsEmail);
    expect(patient).toMatchObject({ name: 'Luis Betancor Gil', phone: '34612345678' });
    expect(await backend.history(patient!.id)).toHaveLength(1);
    await pressDone();
  });
});

describe('inactivity (1080×1920)', () => {
  let idleBrowser: Browser;
  let idlePage: Page;

  beforeAll(async () => {
    idleBrowser = await launchBrowser();
    // Fake timers that still follow the real time, so the test can jump over the waiting periods.
    await idleBrowser.context.clock.install();
    idlePage = await idleBrowser.newPage(TERMINALS[1]);
    const token = await stack.signIn(BOOTSTRAP.kiosk.email, BOOTSTRAP.kiosk.password);
    await idlePage.goto(`${stack.gatewayUrl}/`);
    await acceptCookies(idlePage);
    await idlePage.evaluate((value) => localStorage.setItem('token', value), token);
    await idlePage.goto(`${stack.gatewayUrl}/onboarding`);
  }, 30000);

  afterAll(async () => {
    await idleBrowser?.close();
  });

  const emailField = () => idlePage.getByLabel('Correo Electrónico');

  it('returns from "¡Todo listo!" to an empty "Bienvenido" after 30 s without a touch', async () => {
    const patient = await backend.completePatient('Nieves Díaz Herrera');
    const walkIn = await backend.bookWalkIn({ id: patient.id, email: patient.email! });
    await emailField().pressSequentially(patient.email);
    await idlePage.getByRole('button', { name: 'Continuar', exact: true }).click();
    await idlePage.getByLabel('Código', { exact: true }).pressSequentially(walkIn.bookingCode!);
    await idlePage.getByRole('button', { name: 'Continuar', exact: true }).click();
    const done = idlePage.getByRole('heading', { level: 1, name: '¡Todo listo!' });
    await done.waitFor();

    await idlePage.clock.fastForward(20_000);
    // A touch starts the count again.
    await idlePage.locator('.kiosk-card').click({ position: { x: 8, y: 8 } });
    await idlePage.clock.fastForward(20_000);
    expect(await done.isVisible()).toBe(true);
    await idlePage.clock.fastForward(11_000);
    await idlePage.getByRole('heading', { level: 1, name: 'Bienvenido' }).waitFor();
    expect(await emailField().inputValue()).toBe('');
  });

  it('clears a half-filled identification, and the alert nobody answered, after 2 minutes without a touch', async () => {
    await idlePage.route(apiPath('/users/onboarding/code'), (route) => route.abort('connectionrefused'));
    await emailField().pressSequentially('alguien@example.test');
    await idlePage.getByRole('button', { name: 'Continuar', exact: true }).click();
    await idlePage.getByRole('button', { name: 'Enviarme un código por correo', exact: true }).click();
    const alert = idlePage.locator('.swal2-popup.swal2-show');
    await alert.waitFor();
    await idlePage.clock.fastForward(60_000);
    expect(await alert.isVisible()).toBe(true);
    await idlePage.clock.fastForward(61_000);
    await idlePage.locator('.swal2-container').waitFor({ state: 'detached' });
    await idlePage.getByRole('heading', { level: 1, name: 'Bienvenido' }).waitFor();
    expect(await emailField().inputValue()).toBe('');
  });
});

describe('with the appointments service down', () => {
  beforeAll(async () => {
    await stack.stopAppointments();
  });

  it.each(TERMINALS)(
    'alerts a known patient, once the code matched, and stays on "Identifíquese" ($width×$height)',
    async (terminal) => {
      await page.setViewportSize(terminal);
      await page.goto(`${stack.gatewayUrl}/onboarding`);
      const patient = await backend.completePatient('Marta Rodríguez Alonso');
      await submitEmail(patient.email);
      await identifyByEmailedCode(patient.email);
      expect(await answerDialog(page)).toEqual({ title: 'No se pudo registrar la cita.', text: '' });
      await heading('Identifíquese').waitFor();
    },
  );

  it('saves a new patient, alerts the failed booking and stays on "Ya casi"', async () => {
    const email = uniqueEmail('kiosk-down');
    await page.goto(`${stack.gatewayUrl}/onboarding`);
    await submitEmail(email);
    await firstVisit();
    await page.getByLabel('Nombre Completo').pressSequentially('Jorge Quintana Falcón');
    await page.getByLabel('Teléfono').pressSequentially('612999888');
    await button('Continuar con Cita').click();
    expect((await answerDialog(page)).title).toBe('No se pudo registrar la cita.');
    await heading('Ya casi').waitFor();
    expect(await page.getByLabel('Nombre Completo').inputValue()).toBe('Jorge Quintana Falcón');
    await kioskScreenshot(page, 'kiosk-booking-failed');
    expect(await backend.patient(email)).toMatchObject({ name: 'Jorge Quintana Falcón' });
  });
});

it('never shows the kiosk to staff: a doctor at /onboarding is sent away (to /login, then home)', async () => {
  const token = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await page.evaluate((value) => localStorage.setItem('token', value), token);
  await page.goto(`${stack.gatewayUrl}/onboarding`);
  await page.waitForURL('**/doctor/appointments');
  expect(await heading('Bienvenido').count()).toBe(0);
});
