/**
 * A working day in real Chromium, at 1280 and 390 px, each from a first visit (fresh profile, cookie
 * banner answered) with the sign-in typed key by key: "Listado de Citas" lists the day's work with
 * its status (waiting, attended, no-show, booked; not cancelled), a typed name finds a waiting
 * patient, "Estado" filters; the appointment detail shows status and arrival; "Agenda de hoy"
 * leaves the cancelled appointment out of its total and offers no "No presentado" before the start;
 * a checked-in patient's area says so instead of offering "Cambiar cita" and "Cancelar Cita".
 */
import type { Page } from 'playwright-core';
import { answerDialog, acceptCookies } from './support/dialogs';
import { launchBrowser, screenshot, type Browser } from './support/browser';
import {
  doctorToken,
  fixtureAppointment,
  todayAt,
  type TodayAppointment,
} from './support/appointments-today';
import { BOOTSTRAP, createConfirmedPatient, startFullProduct, type Stack } from './support/product';

const WIDTHS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
];

let stack: Stack;
let doctor: string;
type Person = { name: string; id: string; email: string; password: string; appointment: TodayAppointment };
const people = {} as Record<'waiting' | 'seen' | 'missed' | 'later' | 'cancelled', Person>;

async function personWith(name: string, minutes: number): Promise<Person> {
  const patient = await createConfirmedPatient(stack, name);
  return {
    ...patient,
    name,
    appointment: await fixtureAppointment(stack, { ...patient, name }, todayAt(minutes)),
  };
}

beforeAll(async () => {
  stack = await startFullProduct(['backoffice']);
  doctor = await doctorToken(stack);
  people.waiting = await personWith('Nayra Guedes Padrón', 20);
  people.seen = await personWith('Mario Betancort Luis', -10);
  people.missed = await personWith('Lucía Afonso Trujillo', -30);
  people.later = await personWith('Óscar Pérez Armas', 90);
  people.cancelled = await personWith('Carmen Suárez Vega', 60);
  const call = async (path: string, method: 'post' | 'delete' = 'post') => {
    const response =
      method === 'post' ? await stack.api.post(path, {}, doctor) : await stack.api.delete(path, doctor);
    expect(response.status).toBe(200);
  };
  await call(`/dates/checkin/${people.waiting.appointment.id}`);
  await call(`/dates/attended/${people.seen.appointment.id}`);
  await call(`/dates/noshow/${people.missed.appointment.id}`);
  await call(`/dates/cancel/${people.cancelled.appointment.id}`, 'delete');
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

/** A first visit: a fresh browser (no cookies, no storage), the home page, the cookie banner answered. */
async function firstVisit(viewport: {
  width: number;
  height: number;
}): Promise<{ browser: Browser; page: Page }> {
  const browser = await launchBrowser();
  const page = await browser.newPage(viewport);
  await page.goto(`${stack.gatewayUrl}/`);
  await acceptCookies(page);
  return { browser, page };
}

/** Signs in on /login typing as a person does, and answers the welcome dialog. */
async function typeSignIn(page: Page, email: string, password: string) {
  await page.goto(`${stack.gatewayUrl}/login`);
  await page.getByLabel('Correo Electrónico').pressSequentially(email, { delay: 20 });
  await page.getByLabel('Contraseña', { exact: true }).pressSequentially(password, { delay: 20 });
  await page.getByRole('button', { name: 'Acceder' }).click();
  await answerDialog(page);
}

describe.each(WIDTHS)('at $width px', (viewport) => {
  let browser: Browser;
  let page: Page;
  afterEach(async () => {
    await browser?.close();
  });

  it('DOCTOR: "Listado de Citas" shows the day\'s work with its status, finds a waiting patient by name, filters by status; the detail shows status and arrival', async () => {
    ({ browser, page } = await firstVisit(viewport));
    await typeSignIn(page, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    await page.waitForURL('**/doctor/appointments');
    await page.getByRole('heading', { level: 1, name: 'Listado de Citas' }).waitFor();
    const main = page.locator('main');
    // On a phone each row is a card: found by its element, whatever role the layout leaves it.
    const row = (name: string) => main.locator('tbody tr').filter({ hasText: name });
    await row(people.waiting.name).waitFor();
    const expected: Array<[Person, string]> = [
      [people.waiting, 'En espera'],
      [people.seen, 'Atendida'],
      [people.missed, 'No presentado'],
      [people.later, 'Reservada'],
    ];
    for (const [person, label] of expected) {
      await row(person.name).waitFor();
      expect(
        await row(person.name).locator('.bo-badge:not([data-testid="payment-badge"])').textContent(),
      ).toBe(label);
    }
    expect(await row(people.cancelled.name).count()).toBe(0);
    await screenshot(page, 'day-appointment-list');

    await main
      .getByRole('searchbox', { name: 'Buscar paciente' })
      .pressSequentially('nayra guedes', { delay: 30 });
    await row(people.seen.name).waitFor({ state: 'detached' });
    expect(await row(people.waiting.name).count()).toBe(1);
    await main.getByRole('searchbox', { name: 'Buscar paciente' }).fill('');
    await row(people.seen.name).waitFor();
    await main.getByRole('combobox', { name: 'Estado' }).selectOption({ label: 'No presentado' });
    await row(people.waiting.name).waitFor({ state: 'detached' });
    expect(await row(people.missed.name).count()).toBe(1);
    await main.getByRole('combobox', { name: 'Estado' }).selectOption({ label: 'Todos' });

    await row(people.waiting.name)
      .getByRole('link', { name: `Ver la cita de ${people.waiting.name}` })
      .click();
    await page.waitForURL(`**/doctor/appointments/${people.waiting.appointment.id}`);
    expect(await page.getByTestId('appointment-status').textContent()).toBe('En espera');
    expect(await page.getByTestId('appointment-arrival').textContent()).toMatch(/^\d{2}:\d{2}$/);
    await screenshot(page, 'day-appointment-detail');

    await page.goto(`${stack.gatewayUrl}/doctor/appointments/${people.missed.appointment.id}`);
    expect(await page.getByTestId('appointment-status').textContent()).toBe('No presentado');
    await page.getByText('El paciente no se presentó: la cita no admite historia clínica.').waitFor();
    expect(await page.getByRole('button', { name: 'Crear Historia Clínica' }).count()).toBe(0);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
  });

  it('DOCTOR: "Agenda de hoy" leaves the cancelled appointment out of its total and offers "No presentado" only once started', async () => {
    ({ browser, page } = await firstVisit(viewport));
    await typeSignIn(page, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
    await page.waitForURL('**/doctor/appointments');
    await page.goto(`${stack.gatewayUrl}/doctor/agenda`);
    await page.getByRole('heading', { level: 1, name: 'Agenda de hoy' }).waitFor();
    const item = (name: string) => page.getByRole('listitem').filter({ hasText: name });
    await item(people.cancelled.name).waitFor();
    // Five on the list (the cancelled one shown as such), four in the total.
    await page.getByText('4 citas · 1 en espera').waitFor();
    expect(
      await item(people.later.name).locator('.bo-agenda__actions').getByRole('button').allTextContents(),
    ).toEqual(['Registrar llegada', 'Atendida']);
    await screenshot(page, 'day-agenda');
  });

  it('PACIENT checked in: the area says so, with no "Cambiar cita" nor "Cancelar Cita"', async () => {
    ({ browser, page } = await firstVisit(viewport));
    await typeSignIn(page, people.waiting.email, people.waiting.password);
    await page.waitForURL('**/user');
    const checkedIn = page.getByTestId('checked-in');
    await checkedIn.waitFor();
    expect(await checkedIn.textContent()).toMatch(/^Ha registrado su llegada a las \d{2}:\d{2}\./);
    expect(await page.getByRole('link', { name: 'Cambiar cita' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Cancelar Cita' }).count()).toBe(0);
    await screenshot(page, 'day-patient-checked-in');
    expect(browser.errors).toEqual([]);
  });
});
