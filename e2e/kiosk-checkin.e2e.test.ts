/**
 * The kiosk's arrival (docs/product/kiosk.md#arrival), in real Chromium against the running product (auth,
 * e-mail worker and appointments behind the gateway serving the built shell and kiosk), signed in as the
 * kiosk account: a patient with an appointment today is checked in and told its time; a patient whose
 * appointment is on another day sees it and chooses "Ser atendido ahora" (one-step swap on the server: the
 * old one cancelled, one walk-in checked in) or "Mantener mi cita"; a staff e-mail is told apart and
 * creates nothing. At 1080×1920 (portrait terminal), 1280×800 (landscape) and 390×844 (phone).
 */
import type { Page } from 'playwright-core';
import { centreInstant, nextMonthWeekdays } from './support/backoffice';
import { type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { answerDialog } from './support/dialogs';
import { appointmentToday } from './support/appointments-today';
import { kioskBackend, kioskScreenshot, signInAsKiosk, startKioskProduct } from './support/kiosk-product';
import { BOOTSTRAP, centreDateTime, createConfirmedPatient } from './support/product';

const VIEWPORTS = [
  { width: 1080, height: 1920 },
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

let stack: Awaited<ReturnType<typeof startKioskProduct>>;
let backend: Awaited<ReturnType<typeof kioskBackend>>;
let browser: Browser;
let page: Page;
const days = nextMonthWeekdays();
let nextDay = 0;

// The site's cookie banner is answered once (on a phone-sized screen it covers the kiosk's buttons).
browserOnProduct(
  () => startKioskProduct(),
  (started) => ({ stack, browser, page } = started),
  { viewport: VIEWPORTS[0] },
);

beforeAll(async () => {
  backend = await kioskBackend(stack);
  await signInAsKiosk(page, stack.gatewayUrl);
}, 60000);

const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
const button = (name: string) => page.getByRole('button', { name, exact: true });
const appointmentLine = () => page.getByTestId('kiosk-appointment-time');

async function submitEmail(email: string): Promise<void> {
  await heading('Bienvenido').waitFor();
  await page.getByLabel('Correo Electrónico').fill(email);
  await button('Continuar').click();
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

/** Every button of the card is a comfortable touch target, and the card fits on the screen. */
async function expectUsableCard(): Promise<void> {
  for (const target of await page.locator('.kiosk-card button:visible').all()) {
    const box = await target.boundingBox();
    expect(box!.height).toBeGreaterThanOrEqual(48);
    expect(box!.width).toBeGreaterThanOrEqual(48);
  }
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

async function pressDone(): Promise<void> {
  await button('Hecho').click();
  await heading('Bienvenido').waitFor();
  expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe('');
}

/** A confirmed patient with name and phone who can sign in and book online. */
async function onlinePatient(name: string) {
  return { ...(await createConfirmedPatient(stack, name)), name };
}

/** The patient books a slot of another day (next month) online, through POST /dates. */
async function bookAnotherDay(patient: { email: string; password: string }, time = '10:00') {
  const token = await stack.signIn(patient.email, patient.password);
  const date = centreInstant(days[nextDay++ % days.length], time);
  const response = await stack.api.post<{ id: string; date: string }>('/dates', { date }, token);
  if (response.status !== 201)
    throw new Error(`booking failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body;
}

describe.each(VIEWPORTS)('on a $width×$height screen', (viewport) => {
  beforeAll(async () => {
    await page.setViewportSize(viewport);
    await page.goto(`${stack.gatewayUrl}/onboarding`);
  });

  it('checks in a patient with an appointment today and tells its time, booking nothing more', async () => {
    const patient = await onlinePatient('Yaiza Hernández Cabrera');
    const today = await appointmentToday(stack, patient);
    if (today.how === 'fixture') {
      console.info(
        'kiosk-checkin: no free slot within 2 h at this hour; the appointment was written by the fixture',
      );
    }
    await submitEmail(patient.email);
    await expectHeading('¡Todo listo!');
    const when = centreDateTime(today.date);
    expect((await appointmentLine().textContent())?.trim()).toBe(
      `Su cita es hoy, ${when.date}, a las ${when.time}`,
    );
    await page
      .getByText('En breve le atenderá nuestro personal. Gracias por su paciencia.', { exact: true })
      .waitFor();
    await expectUsableCard();
    await kioskScreenshot(page, 'kiosk-checked-in');

    const history = await backend.history(patient.id);
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ id: today.id, status: 'checkedIn' });
    expect((history[0] as { checkedInAt?: string }).checkedInAt).toBeTruthy();
    await pressDone();
  });

  it('shows an appointment of another day and, on "Ser atendido ahora", swaps it for a walk-in checked in', async () => {
    const patient = await onlinePatient('Octavio Déniz Ramírez');
    const future = await bookAnotherDay(patient);
    await submitEmail(patient.email);

    await expectHeading('Ya tiene una cita');
    const { date, time } = centreDateTime(future.date);
    expect((await appointmentLine().textContent())?.trim()).toBe(`Su cita es el ${date} a las ${time}`);
    await button('Mantener mi cita').waitFor();
    await expectUsableCard();
    await kioskScreenshot(page, 'kiosk-choice');
    // Nothing changes until the patient chooses.
    expect((await backend.history(patient.id)).map((a) => a.status)).toEqual(['booked']);

    const touchedAt = Date.now();
    await button('Ser atendido ahora').click();
    await expectHeading('¡Todo listo!');
    const history = await backend.history(patient.id);
    expect(history).toHaveLength(2);
    const walkIn = history.find((a) => a.id !== future.id)!;
    // The walk-in's own date and time, as the server booked it.
    const booked = centreDateTime(walkIn.date);
    expect((await appointmentLine().textContent())?.trim()).toBe(
      `Su cita es hoy, ${booked.date}, a las ${booked.time}`,
    );
    expect(walkIn).toMatchObject({ status: 'checkedIn', channel: 'kiosk', pacientId: patient.id });
    const offset = Date.parse(walkIn.date) - touchedAt;
    expect(offset).toBeGreaterThan(50_000);
    expect(offset).toBeLessThan(75_000);
    expect(history.find((a) => a.id === future.id)).toMatchObject({ status: 'cancelled' });
    // Exactly one active appointment: never two, never none.
    expect(history.filter((a) => a.status === 'booked' || a.status === 'checkedIn')).toHaveLength(1);
    await pressDone();
  });
});

describe('at 390×844', () => {
  beforeAll(async () => {
    await page.setViewportSize(VIEWPORTS[2]);
    await page.goto(`${stack.gatewayUrl}/onboarding`);
  });

  it('keeps the appointment of another day on "Mantener mi cita", changing nothing', async () => {
    const patient = await onlinePatient('Candelaria Rivero Sosa');
    const future = await bookAnotherDay(patient, '17:30');
    await submitEmail(patient.email);
    await expectHeading('Ya tiene una cita');
    await button('Mantener mi cita').click();

    await expectHeading('¡Hasta pronto!');
    const { date, time } = centreDateTime(future.date);
    expect((await appointmentLine().textContent())?.trim()).toBe(`Le esperamos el ${date} a las ${time}`);
    await expectUsableCard();
    await kioskScreenshot(page, 'kiosk-kept');
    const history = await backend.history(patient.id);
    expect(history.map((a) => [a.id, a.status])).toEqual([[future.id, 'booked']]);
    await pressDone();
  });

  it('tells a staff e-mail apart ("Este correo pertenece al personal del centro") and creates no patient', async () => {
    await submitEmail(BOOTSTRAP.doctor.email);
    // The lookup sees patients only: the kiosk cannot know yet, and asks the details of a new patient.
    await heading('Ya casi').waitFor();
    await page.getByLabel('Nombre Completo').fill('Alguien del Personal');
    await page.getByLabel('Teléfono').fill('612000999');
    await button('Continuar con Cita').click();

    await page.locator('.swal2-popup.swal2-show').waitFor();
    await kioskScreenshot(page, 'kiosk-staff-email');
    expect(await answerDialog(page)).toEqual({
      title: 'Este correo pertenece al personal del centro',
      text: 'Para registrarse como paciente, escriba otro correo electrónico.',
    });
    await heading('Bienvenido').waitFor();
    expect(await page.getByLabel('Correo Electrónico').inputValue()).toBe(BOOTSTRAP.doctor.email);

    // No patient was made with the staff e-mail, and the staff account is as it was.
    expect(await backend.patient(BOOTSTRAP.doctor.email)).toBeUndefined();
    const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
    const found = await stack.api.get<{ total: number }>(
      `/users/pacients?search=${encodeURIComponent(BOOTSTRAP.doctor.email)}`,
      admin,
    );
    expect(found.body.total).toBe(0);
    expect(await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password)).toBeTruthy();
    await page.getByLabel('Correo Electrónico').fill('');
  });
});
