/**
 * Rescheduling (docs/product/patient-area.md#rescheduling) in a real browser: the patient moves their
 * appointment with "Cambiar cita" (phone and desktop), is told when the new slot was taken meanwhile (the old
 * one kept), sees before cancelling whether the cancellation is refunded, and a doctor moves a patient's
 * appointment with "Editar Cita".
 */
import type { Page } from 'playwright-core';
import { signInThroughUi, signOutThroughUi } from './support/session';
import type { AppointmentsService } from '../services/appointments/src/app';
import { bookedAt } from '../services/appointments/test/support/fixtures';
import { centreInstant, nextMonthWeekdays } from './support/backoffice';
import { pickFutureSlot } from './support/booking';
import { screenshot, DESKTOP, MOBILE, type Browser } from './support/browser';
import { answerDialog } from './support/dialogs';
import { browserOnProduct } from './support/browser-product';
import {
  BOOTSTRAP,
  centreDateTime,
  createConfirmedPatient,
  startFullProduct,
  type Stack,
} from './support/product';

let stack: Stack;
let browser: Browser;
let page: Page;

browserOnProduct(
  () => startFullProduct(['backoffice']),
  (started) => ({ stack, browser, page } = started),
);

const signIn = async (email: string, password: string) => {
  await signInThroughUi(page, stack.gatewayUrl, email, password);
  await page.waitForURL(/\/(user|doctor)/);
};
const signOut = () => signOutThroughUi(page, stack.gatewayUrl);
const book = async (token: string, date: string) => {
  const response = await stack.api.post<{ id: string }>('/dates', { date }, token);
  expect(response.status).toBe(201);
  return response.body.id;
};
const appointmentShown = async () => ({
  date: await page.getByTestId('appointment-date').textContent(),
  time: await page.getByTestId('appointment-time').textContent(),
});

for (const [label, viewport] of [
  ['desktop', DESKTOP],
  ['phone', MOBILE],
] as const) {
  it(`moves the appointment with "Cambiar cita" on ${label}: the new time shown, the old one cancelled`, async () => {
    const patient = await createConfirmedPatient(stack, `Paciente Cambio ${label}`);
    const token = await stack.signIn(patient.email, patient.password);
    await page.setViewportSize(viewport);
    await signIn(patient.email, patient.password);
    await page.goto(`${stack.gatewayUrl}/dates`);
    const first = await pickFutureSlot(page, { nth: 3, slot: viewport === DESKTOP ? 2 : 4 });
    await answerDialog(page, 'confirm');
    await answerDialog(page);
    await page.waitForURL('**/user');

    await page.getByRole('link', { name: 'Cambiar cita' }).click();
    await page.getByRole('heading', { name: 'Cambie su cita' }).waitFor();
    await screenshot(page, `reschedule-calendar-${label}`);
    const second = await pickFutureSlot(page, { nth: 4, slot: viewport === DESKTOP ? 3 : 5 });
    const { date, time } = centreDateTime(second);
    const confirmation = await answerDialog(page, 'confirm');
    expect(confirmation).toMatchObject({
      title: '¿Cambiar su cita a esta hora?',
      // Days ahead: the move keeps the refund, and the dialog says so.
      text: `Fecha ${date} Hora ${time} (Atlantic/Canary) Si cancela la nueva cita con más de 24 horas de antelación se le devolverá el importe pagado.`,
    });
    expect(await answerDialog(page)).toMatchObject({ title: 'Cita cambiada' });
    await page.waitForURL('**/user');
    expect(await appointmentShown()).toEqual({ date, time: `${time} (Atlantic/Canary)` });
    await screenshot(page, `reschedule-done-${label}`);

    const history = await stack.api.get<{ appointments: Array<{ date: string; status: string }> }>(
      `/dates/history/userid/${patient.id}`,
      token,
    );
    expect(history.body.appointments.map((a) => [a.date, a.status])).toEqual(
      expect.arrayContaining([
        [first, 'cancelled'],
        [second, 'booked'],
      ]),
    );
    await signOut();
  });
}

it('keeps the appointment when the chosen slot was taken meanwhile, and says so', async () => {
  await page.setViewportSize(DESKTOP);
  const [patient, other] = await Promise.all([
    createConfirmedPatient(stack, 'Paciente Sin Suerte'),
    createConfirmedPatient(stack, 'Paciente Rápida'),
  ]);
  const [token, otherToken] = await Promise.all([
    stack.signIn(patient.email, patient.password),
    stack.signIn(other.email, other.password),
  ]);
  await signIn(patient.email, patient.password);
  await page.goto(`${stack.gatewayUrl}/dates`);
  const kept = await pickFutureSlot(page, { nth: 5, slot: 6 });
  await answerDialog(page, 'confirm');
  await answerDialog(page);
  await page.waitForURL('**/user');
  const keptShown = await appointmentShown();

  await page.getByRole('link', { name: 'Cambiar cita' }).click();
  const wanted = await pickFutureSlot(page, { nth: 6, slot: 7 });
  // Someone else books it while the confirmation dialog is open.
  await book(otherToken, wanted);
  await answerDialog(page, 'confirm');
  const refused = await answerDialog(page);
  expect(refused.text).toBe('Ese horario ya no está disponible');
  await page.goto(`${stack.gatewayUrl}/user`);
  expect(await appointmentShown()).toEqual(keptShown);
  const current = await stack.api.get<{ date: string | null }>('/dates/currentDate', token);
  expect(current.body.date).toBe(kept);
  await signOut();
});

it('says before cancelling whether the cancellation is refunded: days ahead yes, within 24 hours no', async () => {
  const patient = await createConfirmedPatient(stack, 'Paciente Reembolso');
  const token = await stack.signIn(patient.email, patient.password);
  await signIn(patient.email, patient.password);
  await page.goto(`${stack.gatewayUrl}/dates`);
  await pickFutureSlot(page, { nth: 7, slot: 2 });
  await answerDialog(page, 'confirm');
  await answerDialog(page);
  await page.waitForURL('**/user');
  await page.getByRole('button', { name: 'Cancelar Cita' }).click();
  const ahead = await answerDialog(page, 'confirm');
  expect(ahead.text).toContain('Si cancela ahora se le devolverá el importe pagado.');
  expect((await answerDialog(page)).text).toContain('Le devolveremos el importe pagado.');

  // Within the window: an appointment in three hours (written through the repository, as the
  // booking rules would not offer it to the patient this late).
  const service = stack.components.appointments!.handle as AppointmentsService;
  const soon = new Date(Math.ceil((Date.now() + 3 * 3600_000) / 60_000) * 60_000);
  await bookedAt(service, { id: patient.id, name: 'Paciente Reembolso', email: patient.email }, soon);
  await page.goto(`${stack.gatewayUrl}/user`);
  await page.getByRole('button', { name: 'Cancelar Cita' }).click();
  const late = await answerDialog(page, 'cancel');
  expect(late.text).toContain(
    'Faltan menos de 24 horas para su cita: si cancela ahora no se le devolverá el importe.',
  );
  expect((await stack.api.get<{ date: string | null }>('/dates/currentDate', token)).body.date).toBe(
    soon.toISOString(),
  );
  await signOut();
});

it('lets a doctor move a patient’s appointment with "Editar Cita"', async () => {
  const patient = await createConfirmedPatient(stack, 'Paciente Editada');
  const token = await stack.signIn(patient.email, patient.password);
  await book(token, centreInstant(nextMonthWeekdays()[8]!, '10:15'));
  await signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);

  await page.goto(`${stack.gatewayUrl}/doctor/patient/${patient.id}`);
  await page.getByRole('button', { name: 'Editar Cita' }).click();
  await page.getByRole('region', { name: 'Nueva fecha de la cita' }).waitFor();
  const second = await pickFutureSlot(page, { nth: 9, slot: 3 });
  const { date, time } = centreDateTime(second);
  expect((await answerDialog(page, 'confirm')).text).toBe(
    `Nueva fecha ${date} Hora ${time} (Atlantic/Canary)`,
  );
  expect((await answerDialog(page)).title).toBe('Cita cambiada');
  await page.getByRole('region', { name: 'Nueva fecha de la cita' }).waitFor({ state: 'detached' });
  await screenshot(page, 'backoffice-edit-appointment');
  const current = await stack.api.get<{ date: string | null }>('/dates/currentDate', token);
  expect(current.body.date).toBe(second);
  await signOut();
});

it('logged no errors in the browser but the refused move (409, answered with its dialog)', () => {
  expect(browser.errors).toEqual([
    'console.error: Failed to load resource: the server responded with a status of 409 (Conflict)',
  ]);
});
