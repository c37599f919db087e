/**
 * What the calendar, the patient area and the back office tell people must be true, at 390 px and
 * 1280 px, each from a first visit (a fresh browser, no cookies), typing with the keyboard:
 * - a visitor is never offered a slot that is booked (two days);
 * - "Avisarme si queda un hueco" only on a full day;
 * - a slot held for the patient (waiting list) is shown as theirs, and once its hold has ended as
 *   missed, not as "le avisaremos";
 * - the move dialog says what moving inside the refund window means, and the cancellation then says
 *   it is not refunded;
 * - the history shows the moved appointment as "Cambiada al …".
 */
import { Types } from 'mongoose';
import type { Page } from 'playwright-core';
import { appointmentBooked } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import type { AppointmentsService } from '../services/appointments/src/app';
import { slotsOfDay } from '../services/appointments/src/domain/slot-rules';
import { bookAsStaff, columnTexts, nextMonthWeekdays } from './support/backoffice';
import { launchBrowser, screenshot, type Browser } from './support/browser';
import { acceptCookies, answerDialog } from './support/dialogs';
import {
  BOOTSTRAP,
  centreDateTime,
  createConfirmedPatient,
  startFullProduct,
  type Stack,
} from './support/product';

const WIDTHS = [
  { name: 'phone', viewport: { width: 390, height: 844 } },
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
];

let stack: Stack;
const browsers: Browser[] = [];
const service = () => stack.components.appointments!.handle as AppointmentsService;

beforeAll(async () => {
  stack = await startFullProduct(['backoffice']);
}, 60_000);
afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await stack?.stop();
});

/** A first visit: a fresh browser (no cookies, no storage) at this size, on `path`, banner accepted. */
async function firstVisit(viewport: { width: number; height: number }, path: string): Promise<Page> {
  const browser = await launchBrowser();
  browsers.push(browser);
  const page = await browser.newPage(viewport);
  await page.goto(`${stack.gatewayUrl}${path}`);
  await acceptCookies(page);
  return page;
}

/** Signs in on /login typing key by key, and answers the welcome dialog. */
async function typeSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Correo Electrónico').pressSequentially(email);
  await page.getByLabel('Contraseña', { exact: true }).pressSequentially(password);
  await page.getByRole('button', { name: 'Acceder' }).click();
  expect((await answerDialog(page)).title).toBe('Inicio de sesión exitoso');
}

/** On /dates: next month, then `day`; resolves once that day's slots (or their absence) show. */
async function openDay(page: Page, day: string): Promise<void> {
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await page.locator(`.wk-calendar__day[data-day="${day}"]`).click();
  await page.locator('#slots-title:not(:text("Cargando"))').waitFor();
}

const offeredSlots = (page: Page) =>
  page.locator('.wk-slot').evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-slot')));

/** Every slot of `day` booked (by patients nobody signs in as) except `except`; the bookings' ids. */
async function fillDay(day: string, except: string): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const slot of slotsOfDay(day)) {
    if (slot.toISOString() === except) continue;
    const id = String(new Types.ObjectId());
    const user = { id, name: 'Paciente Ocupado', email: `ocupado-${id}@example.test` };
    const by = { id, rol: 'PACIENT' as const };
    const booked = await service().repositories.appointments.book(
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
    ids.set(slot.toISOString(), booked.id);
  }
  return ids;
}

describe.each(WIDTHS.map((width, index) => ({ ...width, index })))(
  'at $name width',
  ({ name, viewport, index }) => {
    const days = nextMonthWeekdays();
    // Each width its own days, so the two never meet.
    const [visitorDayA, visitorDayB, fullDay, openDayForPatient] = [2, 3, 5, 6].map(
      (d) => days[d + index * 8]!,
    );

    it('offers a visitor (first visit) none of the slots already booked, on two days', async () => {
      const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
      const patients = await Promise.all([
        createConfirmedPatient(stack, 'Paciente Diez'),
        createConfirmedPatient(stack, 'Paciente Diez Y Media'),
      ]);
      const bookedA = slotsOfDay(visitorDayA).find((s) => centreDateTime(s.toISOString()).time === '10:00')!;
      const bookedB = slotsOfDay(visitorDayB).find((s) => centreDateTime(s.toISOString()).time === '10:30')!;
      await bookAsStaff(stack, doctor, bookedA.toISOString(), patients[0]!.id);
      await bookAsStaff(stack, doctor, bookedB.toISOString(), patients[1]!.id);

      const page = await firstVisit(viewport, '/dates');
      await openDay(page, visitorDayA);
      const offeredA = await offeredSlots(page);
      expect(offeredA.length).toBeGreaterThan(10);
      expect(offeredA).not.toContain(bookedA.toISOString());
      await screenshot(page, `visitor-booked-slot-hidden-${name}`);

      await page.locator(`.wk-calendar__day[data-day="${visitorDayB}"]`).click();
      await page.locator(`.wk-slot`).first().waitFor();
      const offeredB = await offeredSlots(page);
      expect(offeredB.length).toBeGreaterThan(10);
      expect(offeredB).not.toContain(bookedB.toISOString());
    });

    it('offers the waiting list only on a full day; shows the held slot as the patient’s, then as missed once its hold ended', async () => {
      const waiting = await createConfirmedPatient(stack, 'Paciente En Espera');
      const freed = slotsOfDay(fullDay)[6]!.toISOString();
      const fillers = await fillDay(fullDay, '');

      const page = await firstVisit(viewport, '/login');
      await typeSignIn(page, waiting.email, waiting.password);
      await page.waitForURL('**/user');
      await page.goto(`${stack.gatewayUrl}/dates`);
      // A day with free slots: book one, no waiting list.
      await openDay(page, openDayForPatient);
      await page.locator('.wk-slot').first().waitFor();
      expect(await page.getByRole('button', { name: 'Avisarme si queda un hueco' }).count()).toBe(0);
      // The full day: the waiting list.
      await page.locator(`.wk-calendar__day[data-day="${fullDay}"]`).click();
      await page.getByText(/No hay Horiarios disponibles/).waitFor();
      await page.getByRole('button', { name: 'Avisarme si queda un hueco' }).click();
      expect(await answerDialog(page)).toMatchObject({ title: 'Lista de espera' });
      await page.getByText(/Está en la lista de espera .* \(puesto 1\)/).waitFor();

      // A slot frees up: held for this patient, and the calendar says so instead of "no slots".
      const doctor = await stack.signIn(BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
      expect((await stack.api.delete(`/dates/cancel/${fillers.get(freed)}`, doctor)).status).toBe(200);
      for (
        let i = 0;
        !(await stack.mail.messagesTo(waiting.email)).some((m) => m.Subject.startsWith('Hueco libre'));
        i++
      ) {
        if (i > 75) throw new Error('no offer e-mail');
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      await page.reload();
      await openDay(page, fullDay);
      const time = centreDateTime(freed).time;
      await page.getByText(`Le guardamos un hueco a las ${time}`).first().waitFor();
      expect(await page.getByText(/No hay Horiarios disponibles/).count()).toBe(0);
      expect(await page.getByText(/le avisaremos/).count()).toBe(0);
      await screenshot(page, `waitlist-held-slot-${name}`);

      // Its hold ends unclaimed (written in the past, as no call can), and the sweep runs.
      await service().models.Appointment.updateOne(
        { kind: 'offer', slotKey: freed },
        { $set: { offerExpiresAt: new Date(Date.now() - 60_000) } },
      );
      expect((await service().waitlist.sweep()).expired).toBeGreaterThanOrEqual(1);
      await page.reload();
      await openDay(page, fullDay);
      await page.locator('.wk-slot').first().waitFor();
      await page.getByText(`El hueco de las ${time} que le guardamos no se reservó a tiempo`).waitFor();
      expect(await page.getByText(/Si queda un hueco le avisaremos/).count()).toBe(0);
      await screenshot(page, `waitlist-missed-slot-${name}`);
      const mails = await stack.mail.waitForMessagesTo(waiting.email, 2);
      expect(mails.some((m) => m.Subject.startsWith('Hueco no reservado'))).toBe(true);
    });

    it('says in the move dialog that a move inside the refund window is not refunded, then the cancellation says so; the history shows "Cambiada al …"', async () => {
      const patient = await createConfirmedPatient(stack, `Paciente Cambio ${name}`);
      // 23 h 45 min ahead (off the grid's hours is fine: only the new slot is checked).
      const soon = new Date(Math.ceil((Date.now() + (23 * 60 + 45) * 60_000) / 900_000) * 900_000 - 900_000);
      const user = { id: patient.id, name: `Paciente Cambio ${name}`, email: patient.email };
      const by = { id: patient.id, rol: 'PACIENT' as const };
      await service().repositories.appointments.book(
        { date: soon, patientId: patient.id, user, bookedBy: by, channel: 'patient', walkIn: false },
        ({ id, bookingCode }) =>
          createEnvelope(
            appointmentBooked,
            {
              id,
              date: soon.toISOString(),
              pacientId: patient.id,
              user,
              channel: 'patient',
              by,
              bookingCode,
            },
            'fixture',
          ),
      );

      const page = await firstVisit(viewport, '/login');
      await typeSignIn(page, patient.email, patient.password);
      await page.waitForURL('**/user');
      await page.getByRole('link', { name: 'Cambiar cita' }).click();
      await page.waitForURL('**/dates?cambiar=1');
      await openDay(page, days[10 + index * 8]!);
      const target = (await page.locator('.wk-slot').nth(2).getAttribute('data-slot'))!;
      await page.locator('.wk-slot').nth(2).click();
      const dialog = await answerDialog(page);
      expect(dialog.title).toBe('¿Cambiar su cita a esta hora?');
      expect(dialog.text).toContain(
        'Faltan menos de 24 horas para su cita: si la cambia, la nueva cita no será reembolsable y, si la cancela después, no se le devolverá el importe.',
      );
      expect((await answerDialog(page)).title).toBe('Cita cambiada');
      await page.waitForURL('**/user');

      await page.getByRole('button', { name: 'Cancelar Cita' }).click();
      const asked = await answerDialog(page);
      expect(asked.text).toContain('si cancela no se le devolverá el importe');
      const done = await answerDialog(page);
      expect(done.text).toContain('El importe pagado no se devuelve.');
      expect(done.text).not.toContain('Le devolveremos');

      // The doctor's view of the patient's history.
      const staffPage = await firstVisit(viewport, '/login');
      await typeSignIn(staffPage, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
      await staffPage.goto(`${stack.gatewayUrl}/doctor/appointments/hisotry/${patient.id}`);
      const table = `Listado de Citas de Paciente Cambio ${name}`;
      await staffPage.getByRole('heading', { name: table }).waitFor();
      await staffPage.locator('tbody tr').nth(1).waitFor();
      const { date, time } = centreDateTime(target);
      const statuses = await columnTexts(staffPage, table, 'Estado');
      expect(statuses).toContain(`Cambiada al ${date} ${time}`);
      expect(statuses.filter((s) => s === 'Cancelada')).toHaveLength(1);
      await screenshot(staffPage, `history-moved-${name}`);
    });
  },
);
