/**
 * The kiosk (docs/product/kiosk.md: its steps, flow and alerts) in real Chromium against the
 * running product, signed in as the kiosk account, on both portrait terminals (768×1024, 1080×1920):
 * new and known patients, only the missing details asked, immediate booking checked through the API,
 * the four alerts, and the back end going down.
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

async function submitEmail(email: string): Promise<void> {
  await heading('Bienvenido').waitFor();
  await page.getByLabel('Correo Electrónico').fill(email);
  await button('Continuar').click();
}

/**
 * The kiosk booked for about one minute after the touch (now + 60 s, docs/product/kiosk.md#booking-time),
 * only once, and checked the patient in (the patient is at the centre).
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

  it('asks a new e-mail for name and phone, creates the patient and books at once', async () => {
    const email = uniqueEmail('kiosk-new');
    await submitEmail(email);

    await heading('Ya casi').waitFor();
    const name = page.getByLabel('Nombre Completo');
    const phone = page.getByLabel('Teléfono');
    expect(await name.getAttribute('placeholder')).toBe('Nombre Completo');
    expect(await phone.getAttribute('placeholder')).toBe('Teléfono');
    expect(await phone.getAttribute('type')).toBe('tel');
    await name.fill('Carmen Suárez Déniz');
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

  it('books a known patient with name and phone straight away, without asking anything', async () => {
    const patient = await backend.completePatient('Antonio Perdomo Rivero');
    const touchedAt = Date.now();
    await submitEmail(patient.email);
    await expectBooked();
    expect(await page.getByLabel('Nombre Completo').count()).toBe(0);
    await expectOneWalkIn(patient.id, touchedAt);
    await pressDone();
  });

  it('asks a known patient without phone only for the phone, saves it and books', async () => {
    const patient = await backend.patientWithoutPhone('Rosa Cabrera León');
    await submitEmail(patient.email);
    await heading('Ya casi').waitFor();
    expect(await page.getByLabel('Nombre Completo').count()).toBe(0);
    await page.getByLabel('Teléfono').fill('699111222');
    await kioskScreenshot(page, 'kiosk-details-phone-only');

    const touchedAt = Date.now();
    await button('Continuar con Cita').click();
    await expectBooked();
    expect(await backend.patient(patient.email)).toMatchObject({
      id: patient.id,
      name: 'Rosa Cabrera León',
      phone: '34699111222',
    });
    await expectOneWalkIn(patient.id, touchedAt);
    await pressDone();
  });

  it('checks in a patient whose appointment is now, tells its time and books nothing more', async () => {
    const patient = await backend.completePatient('Pedro Santana Ojeda');
    const existing = await backend.bookWalkIn(patient.id);
    await submitEmail(patient.email);

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

  it('covers the card with "Cargando..." during the lookup and shows "Guardando…" while saving', async () => {
    const slow = (url: (url: URL) => boolean) =>
      page.route(url, async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 1200));
        await route.continue();
      });
    await slow(apiPath('/users/fetch'));
    await slow(apiPath('/users/onboarding'));

    await submitEmail(uniqueEmail('kiosk-slow'));
    const overlay = page.getByTestId('kiosk-busy');
    await overlay.waitFor();
    expect((await overlay.textContent())?.trim()).toBe('Cargando...');
    expect(await overlay.locator('.wk-spinner').count()).toBe(1);
    await kioskScreenshot(page, 'kiosk-busy');
    await heading('Ya casi').waitFor();
    await overlay.waitFor({ state: 'detached' });

    await page.getByLabel('Nombre Completo').fill('Elena Marrero Vega');
    await page.getByLabel('Teléfono').fill('612000111');
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

  it('"Error al buscar paciente." when the lookup fails', async () => {
    await page.route(apiPath('/users/fetch'), (route) => route.abort('connectionrefused'));
    const email = alertsEmail;
    await submitEmail(email);
    expect((await answerDialog(page)).title).toBe('Error al buscar paciente.');
    await heading('Bienvenido').waitFor();
    expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe(email);
  });

  it('"No se pudieron guardar sus datos." when saving fails, with the server reason under the field', async () => {
    // The lookup still finds nobody (previous test's e-mail is in the field).
    await button('Continuar').click();
    await heading('Ya casi').waitFor();
    await page.getByLabel('Nombre Completo').fill('Luis Betancor Gil');
    await page.getByLabel('Teléfono').fill('12345');
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
    await emailField().fill(patient.email);
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

  it('clears a half-filled e-mail, and the alert nobody answered, after 2 minutes without a touch', async () => {
    await idlePage.route(apiPath('/users/fetch'), (route) => route.abort('connectionrefused'));
    await emailField().fill('alguien@example.test');
    await idlePage.getByRole('button', { name: 'Continuar', exact: true }).click();
    const alert = idlePage.locator('.swal2-popup.swal2-show');
    await alert.waitFor();
    await idlePage.clock.fastForward(60_000);
    expect(await alert.isVisible()).toBe(true);
    expect(await emailField().inputValue()).toBe('alguien@example.test');
    await idlePage.clock.fastForward(61_000);
    await idlePage.locator('.swal2-container').waitFor({ state: 'detached' });
    expect(await emailField().inputValue()).toBe('');
  });
});

describe('with the appointments service down', () => {
  beforeAll(async () => {
    await stack.stopAppointments();
  });

  it.each(TERMINALS)(
    'alerts a known patient and stays on "Bienvenido" ($width×$height)',
    async (terminal) => {
      await page.setViewportSize(terminal);
      await page.goto(`${stack.gatewayUrl}/onboarding`);
      const patient = await backend.completePatient('Marta Rodríguez Alonso');
      await submitEmail(patient.email);
      expect(await answerDialog(page)).toEqual({ title: 'No se pudo registrar la cita.', text: '' });
      await heading('Bienvenido').waitFor();
      expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe(patient.email);
    },
  );

  it('saves a new patient, alerts the failed booking and stays on "Ya casi"', async () => {
    const email = uniqueEmail('kiosk-down');
    await page.getByLabel('Correo Electrónico').fill('');
    await submitEmail(email);
    await heading('Ya casi').waitFor();
    await page.getByLabel('Nombre Completo').fill('Jorge Quintana Falcón');
    await page.getByLabel('Teléfono').fill('612999888');
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
