/**
 * The waiting list (docs/product/patient-area.md#waiting-list) in a real browser: on a full day a patient
 * asks "Avisarme si queda un hueco" (desktop), sees their place in the patient area, and when a slot frees up
 * opens the e-mailed link on a phone, signs in from it, and books the held slot.
 */
import { Types } from 'mongoose';
import type { Page } from 'playwright-core';
import { appointmentBooked } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { signInThroughUi } from './support/session';
import type { AppointmentsService } from '../services/appointments/src/app';
import { slotsOfDay } from '../services/appointments/src/domain/slot-rules';
import { nextMonthWeekdays } from './support/backoffice';
import { screenshot, MOBILE } from './support/browser';
import { answerDialog } from './support/dialogs';
import { browserOnProduct } from './support/browser-product';
import { centreDateTime, createConfirmedPatient, startProduct, type Stack } from './support/product';

let stack: Stack;
let page: Page;

browserOnProduct(
  () => startProduct(),
  (started) => ({ stack, page } = started),
);

/** Every slot of `day` booked (by patients nobody signs in as), as bookings write them. */
async function fillDay(day: string, except: string): Promise<void> {
  const service = stack.components.appointments!.handle as AppointmentsService;
  for (const slot of slotsOfDay(day)) {
    if (slot.toISOString() === except) continue;
    const id = String(new Types.ObjectId());
    const user = { id, name: 'Paciente Ocupado', email: `ocupado-${id}@example.test` };
    const by = { id, rol: 'PACIENT' as const };
    await service.repositories.appointments.book(
      { date: slot, patientId: id, user, bookedBy: by, channel: 'patient', walkIn: false },
      ({ id: appointmentId, bookingCode }) =>
        createEnvelope(
          appointmentBooked,
          {
            id: appointmentId,
            date: slot.toISOString(),
            pacientId: id,
            user,
            channel: 'patient',
            by,
            bookingCode,
          },
          'fixture',
        ),
    );
  }
}

/** The link of the offer e-mail sent to `email`. */
async function offerLink(email: string): Promise<string> {
  for (let i = 0; i < 75; i++) {
    const offer = (await stack.mail.messagesTo(email)).find((m) => m.Subject.startsWith('Hueco libre'));
    if (offer) {
      const text = (await stack.mail.message(offer.ID)).Text;
      const link = /https?:\/\/\S+\/dates\/offer\/[A-Za-z0-9_-]+/.exec(text)?.[0];
      if (link) return link;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no offer e-mail to ${email}`);
}

it('joins the waiting list of a full day, and books the freed slot from the e-mailed link on a phone', async () => {
  const day = nextMonthWeekdays()[6]!;
  const freed = slotsOfDay(day)[4]!.toISOString();
  const [holder, waiting] = await Promise.all([
    createConfirmedPatient(stack, 'Paciente Con Cita'),
    createConfirmedPatient(stack, 'Paciente En Espera'),
  ]);
  const holderToken = await stack.signIn(holder.email, holder.password);
  expect((await stack.api.post('/dates', { date: freed }, holderToken)).status).toBe(201);
  await fillDay(day, freed);

  // Desktop: the full day offers the waiting list.
  await signInThroughUi(page, stack.gatewayUrl, waiting.email, waiting.password);
  await page.waitForURL('**/user');
  await page.goto(`${stack.gatewayUrl}/dates`);
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await page
    .locator(
      '.wk-calendar__day:not(.wk-calendar__day--weekend):not(.wk-calendar__day--closed):not([disabled])',
    )
    .nth(6)
    .click();
  await page.getByText(/No hay Horiarios disponibles/).waitFor();
  await page.getByRole('button', { name: 'Avisarme si queda un hueco' }).click();
  expect(await answerDialog(page)).toMatchObject({ title: 'Lista de espera' });
  await page.getByText(/Está en la lista de espera .* \(puesto 1\)/).waitFor();
  await screenshot(page, 'waitlist-joined-desktop');
  await page.goto(`${stack.gatewayUrl}/user`);
  await page.getByTestId('waitlist-entry').getByText('puesto 1').waitFor();
  await screenshot(page, 'waitlist-patient-area-desktop');

  // The holder cancels; the link reaches the waiting patient, who opens it signed out on a phone.
  expect((await stack.api.delete(`/dates/${encodeURIComponent(freed)}`, holderToken)).status).toBe(200);
  const link = await offerLink(waiting.email);
  await page.goto(`${stack.gatewayUrl}/signOut`);
  await answerDialog(page);
  await page.setViewportSize(MOBILE);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, stack.gatewayUrl));
  await page.getByRole('link', { name: 'Iniciar sesión' }).last().click();
  await page.getByLabel('Correo Electrónico').fill(waiting.email);
  await page.getByLabel('Contraseña', { exact: true }).fill(waiting.password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  await answerDialog(page);
  await page.waitForURL('**/dates/offer/**');
  const { date, time } = centreDateTime(freed);
  expect(await page.getByTestId('offer-date').textContent()).toBe(date);
  expect(await page.getByTestId('offer-time').textContent()).toBe(`${time} (Atlantic/Canary)`);
  await screenshot(page, 'waitlist-offer-phone');
  await page.getByRole('button', { name: 'Reservar este hueco' }).click();
  expect(await answerDialog(page)).toMatchObject({ title: 'Cita reservada' });
  await page.waitForURL('**/user');
  expect(await page.getByTestId('appointment-date').textContent()).toBe(date);
  await screenshot(page, 'waitlist-booked-phone');
  // Booked: off the list, and the link is used up.
  expect(await page.getByTestId('waitlist-entry').count()).toBe(0);
  await page.goto(link.replace(/^https?:\/\/[^/]+/, stack.gatewayUrl));
  await page.getByText('Este hueco ya no está disponible').first().waitFor();
});
