/**
 * "Agenda de hoy" (/doctor/agenda, docs/product/back-office.md#agenda) in real Chromium against the whole
 * product: today's appointments in time order with their status; a check-in made elsewhere (through the API)
 * shows up within 10 s without a reload; "Registrar llegada", "Atendida" and "No presentado" (only once the
 * appointment has started); another day can be picked; DOCTOR at 1280×800 and
 * ADMIN at 390×844 (cards).
 */
import type { Page } from 'playwright-core';
import { signInThroughUi } from './support/session';
import { centreInstant, nextMonthWeekdays, seedAppointments } from './support/backoffice';
import { screenshot, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { answerDialog } from './support/dialogs';
import {
  doctorToken,
  fixtureAppointment,
  todayAt,
  type TodayAppointment,
} from './support/appointments-today';
import {
  BOOTSTRAP,
  centreDateTime,
  createConfirmedPatient,
  startFullProduct,
  type Stack,
} from './support/product';

const PHONE = { width: 390, height: 844 };

let stack: Stack;
let browser: Browser;
let page: Page;
let doctor: string;
const days = nextMonthWeekdays();
/** Patients and their appointments: `soon` (in 20 min), `started` (10 min ago), `later` (in 90 min). */
const people: Record<
  'soon' | 'started' | 'later',
  { name: string; id: string; appointment: TodayAppointment }
> = {} as never;
let anotherDay: { name: string; id: string; date: string };

async function patientWith(name: string, minutes: number) {
  const patient = await createConfirmedPatient(stack, name);
  return {
    name,
    id: patient.id,
    appointment: await fixtureAppointment(stack, { ...patient, name }, todayAt(minutes)),
  };
}

browserOnProduct(
  () => startFullProduct(['backoffice']),
  (started) => ({ stack, browser, page } = started),
);

beforeAll(async () => {
  doctor = await doctorToken(stack);
  people.soon = await patientWith('Lucía Afonso Trujillo', 20);
  people.started = await patientWith('Mario Betancort Luis', -10);
  people.later = await patientWith('Nayra Guedes Padrón', 90);
  const [other] = await seedAppointments(stack, [
    { name: 'Óscar Pérez Armas', date: centreInstant(days[1], '09:30') },
  ]);
  anotherDay = { name: other.patient.name, id: other.id, date: other.date };
}, 90000);

const item = (name: string) => page.getByRole('listitem').filter({ hasText: name });
const badge = (name: string) => item(name).locator('.bo-badge:not([data-testid="payment-badge"])');
const paymentOf = (name: string) => item(name).getByTestId('payment-badge');
/** The item's own actions on the appointment (the payment's "Cobrar" sits with its badge). */
const actionsOf = (name: string) => item(name).locator('.bo-agenda__actions').getByRole('button');
const statusOf = async (id: string) =>
  (await stack.api.get<{ status: string }>(`/dates/id/${id}`, doctor)).body.status;

it('DOCTOR: "Agenda de hoy" in the sidebar lists today in time order with "Reservada" badges', async () => {
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await page.waitForURL('**/doctor/appointments');
  await page.getByRole('link', { name: 'Agenda de hoy' }).click();
  await page.waitForURL('**/doctor/agenda');
  await page.getByRole('heading', { level: 1, name: 'Agenda de hoy' }).waitFor();
  await item(people.later.name).waitFor();

  const names = await page.locator('.bo-agenda__item .bo-agenda__who strong').allTextContents();
  expect(names).toEqual([people.started.name, people.soon.name, people.later.name]);
  const times = await page.locator('.bo-agenda__item .bo-agenda__time').allTextContents();
  expect(times).toEqual(
    [people.started, people.soon, people.later].map((p) => centreDateTime(p.appointment.date).time),
  );
  for (const p of Object.values(people)) expect(await badge(p.name).textContent()).toBe('Reservada');
  // Nobody has paid yet: each says so with the amount, and the desk can take the payment there.
  for (const p of Object.values(people)) {
    await paymentOf(p.name).waitFor();
    expect(await paymentOf(p.name).textContent()).toMatch(/^Pendiente \d+,\d{2}\s€$/);
    await item(p.name)
      .getByRole('button', { name: `Cobrar la cita de ${p.name}` })
      .waitFor();
  }
  expect(await page.getByText(anotherDay.name).count()).toBe(0);
  await screenshot(page, 'agenda-today');
});

it('shows a check-in made elsewhere within 10 s, without a reload, with the minutes waited', async () => {
  await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true));
  const checkIn = await stack.api.post(`/dates/checkin/${people.soon.appointment.id}`, {}, doctor);
  expect(checkIn.status).toBe(200);
  const seenAfter = Date.now();
  await badge(people.soon.name).filter({ hasText: 'En espera' }).waitFor({ timeout: 10_000 });
  expect(Date.now() - seenAfter).toBeLessThan(10_000);
  expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
  expect(await item(people.soon.name).getByTestId('agenda-waited').textContent()).toMatch(
    /^(Acaba de llegar|Esperando \d+ minutos?)$/,
  );
  // A checked-in patient came: no "Registrar llegada", no "No presentado".
  expect(await actionsOf(people.soon.name).allTextContents()).toEqual(['Atendida']);
  await page.getByText('3 citas · 1 en espera').waitFor();
  await screenshot(page, 'agenda-checked-in');
});

it('"Atendida" (after a confirmation) marks the checked-in patient attended', async () => {
  await item(people.soon.name).getByRole('button', { name: 'Atendida' }).click();
  expect((await answerDialog(page)).title).toBe('¿Marcar la cita como atendida?');
  await badge(people.soon.name).filter({ hasText: 'Atendida' }).waitFor();
  expect(await actionsOf(people.soon.name).count()).toBe(0);
  expect(await statusOf(people.soon.appointment.id)).toBe('attended');
});

it('"No presentado" marks an appointment that has started, and is not offered before its start', async () => {
  await item(people.started.name).getByRole('button', { name: 'No presentado' }).click();
  expect((await answerDialog(page)).title).toBe('¿Marcar al paciente como no presentado?');
  await badge(people.started.name).filter({ hasText: 'No presentado' }).waitFor();
  expect(await statusOf(people.started.appointment.id)).toBe('noShow');

  expect(await actionsOf(people.later.name).allTextContents()).toEqual(['Registrar llegada', 'Atendida']);
  expect(await badge(people.later.name).textContent()).toBe('Reservada');
  expect(await statusOf(people.later.appointment.id)).toBe('booked');
});

it('"Registrar llegada" checks the patient in', async () => {
  await item(people.later.name).getByRole('button', { name: 'Registrar llegada' }).click();
  await badge(people.later.name).filter({ hasText: 'En espera' }).waitFor();
  expect(await statusOf(people.later.appointment.id)).toBe('checkedIn');
});

it('shows another day picked in the date input, and back to today with "Hoy"', async () => {
  const [year, month, date] = days[1].split('-');
  await page.getByLabel('Día').fill(days[1]);
  await page.getByRole('heading', { level: 1, name: `Agenda del ${date}/${month}/${year}` }).waitFor();
  await item(anotherDay.name).waitFor();
  expect(await badge(anotherDay.name).textContent()).toBe('Reservada');
  expect(await page.getByText(people.soon.name).count()).toBe(0);
  await page.getByRole('button', { name: 'Hoy', exact: true }).click();
  await page.getByRole('heading', { level: 1, name: 'Agenda de hoy' }).waitFor();
  await item(people.soon.name).waitFor();
});

it('"Ver" opens the appointment detail with its record form', async () => {
  await item(people.later.name)
    .getByRole('link', { name: `Ver la cita de ${people.later.name}` })
    .click();
  await page.waitForURL(`**/doctor/appointments/${people.later.appointment.id}`);
  await page.getByText(people.later.name).first().waitFor();
  await page.goBack();
  await page.getByRole('heading', { level: 1, name: 'Agenda de hoy' }).waitFor();
});

it('ADMIN at 390×844: one card per appointment, nothing wider than the screen', async () => {
  const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  await page.evaluate((token) => localStorage.setItem('token', token), admin);
  await page.setViewportSize(PHONE);
  await page.goto(`${stack.gatewayUrl}/doctor/agenda`);
  await page.getByRole('heading', { level: 1, name: 'Agenda de hoy' }).waitFor();
  await item(people.later.name).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  for (const button of await page.locator('.bo-agenda__item button:visible').all()) {
    expect((await button.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  }
  await screenshot(page, 'agenda-today');
  await page.getByRole('button', { name: 'Menú' }).click();
  await page.getByRole('link', { name: 'Agenda de hoy' }).waitFor();
  await page.getByRole('button', { name: 'Menú' }).click();
});

it('logged no page errors', () => {
  // A request the server refuses shows up as a failed resource in the console.
  expect(browser.errors.filter((e) => !/status of 4\d\d/.test(e))).toEqual([]);
});
