/**
 * The staff's room reservations and the ADMIN's centre screens (rooms, centre profile, form builder) in real
 * Chromium at 1280 px and 390 px, each width a first visit with no cookies and every value typed
 * key by key: a doctor reserves two hours, sees them listed under their name beside an admin's,
 * filters "Mías" and cancels one; an admin changes the centre's phone in "Perfil del centro" (after a
 * refused e-mail shown under its field) and the public site shows the new number; an admin adds a
 * priced option to the clinical form, sees it in the preview, saves, and the version goes up.
 * Screenshots: artifacts/screenshots/admin-screens-{rooms,centre-profile,form-config}-<width>.png.
 */
import type { Locator, Page } from 'playwright-core';
import type { CentreProfile, RoomReservationView, UsersPage, ViewConfigView } from '@crm/contracts';
import { eventually } from '@crm/testing';
import { signOutThroughUi, staffSignsInTyping, typeInto } from './support/session';
import { appStarted, launchBrowser, screenshot, DESKTOP, type Browser } from './support/browser';
import { centreInstant, nextMonthWeekdays } from './support/backoffice';
import { acceptCookies, answerDialog, fieldError } from './support/dialogs';
import { BOOTSTRAP, centreDateTime, startFullProduct, type Stack } from './support/product';

const PHONE = { width: 390, height: 844 };
const RECORDS_VIEW = 'doctor/appointments/:id';
const days = nextMonthWeekdays();

let stack: Stack;
beforeAll(async () => {
  stack = await startFullProduct(['backoffice']);
}, 90000);
afterAll(async () => {
  await stack?.stop();
});

const signIn = (page: Page, account: { email: string; password: string }) =>
  staffSignsInTyping(page, stack.gatewayUrl, account);

const staffName = async (rol: 'ADMIN' | 'DOCTOR', id: string): Promise<string> => {
  const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  const users = await stack.api.get<UsersPage>(`/users?rol=${rol}&limit=100`, admin);
  return users.body.users.find((user) => user.id === id)!.name;
};

/** A number as a field shows it ("53.58", "54 EUR", "53,58 €"). */
const amountIn = async (field: Locator): Promise<number> =>
  Number((await field.inputValue()).replace(/[^\d,.-]/g, '').replace(',', '.'));

for (const [index, viewport] of [DESKTOP, PHONE].entries()) {
  describe(`at ${viewport.width} px`, () => {
    let browser: Browser;
    let page: Page;
    beforeAll(async () => {
      browser = await launchBrowser();
      page = await browser.newPage(viewport);
      await page.goto(`${stack.gatewayUrl}/`);
      await appStarted(page);
      // The banner's script loads after the first paint; on a busy machine that takes a while.
      await page.locator('#cc-main .cm__btn[data-role="all"]').waitFor({ timeout: 45000 });
      await acceptCookies(page);
    }, 90000);
    afterAll(async () => {
      await browser?.close();
    });

    it('a doctor reserves two hours, sees them with their name, filters "Mías" and cancels one', async () => {
      const day = days[3 + index * 5]!;
      const [first, second] = [centreInstant(day, '10:00'), centreInstant(day, '12:00')];
      const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
      const adminsHour = centreInstant(day, '08:00');
      const seeded = await stack.api.post<{ id: string }>(
        '/room-calendar',
        { room: 'consulta-1', dates: [adminsHour] },
        admin,
      );
      expect(seeded.status).toBe(201);
      const adminId = (await stack.api.get<{ id: string }>('/auth/currentUser', admin)).body.id;

      await signIn(page, BOOTSTRAP.doctor);
      const doctorId = await page.evaluate(async () => {
        const token = localStorage.getItem('token');
        const answer = await fetch('/api/v1/auth/currentUser', {
          headers: { authorization: `Bearer ${token}` },
        });
        return ((await answer.json()) as { id: string }).id;
      });
      const [doctorName, adminName] = [
        await staffName('DOCTOR', doctorId),
        await staffName('ADMIN', adminId),
      ];

      await page.goto(`${stack.gatewayUrl}/doctor/room/reserve`);
      await page.getByRole('button', { name: 'Mes siguiente' }).click();
      await page.locator(`[data-day="${day}"]`).click();
      for (const slot of [first, second]) {
        await page.locator(`[data-slot="${slot}"]`).click();
        await page.getByRole('button', { name: 'Reservar', exact: true }).click();
        expect((await answerDialog(page)).title).toBe('Consulta reservada');
      }

      const list = page.getByRole('list', { name: 'Reservas' });
      const item = (iso: string) => {
        const { date, time } = centreDateTime(iso);
        return list.getByRole('listitem').filter({ hasText: `${date} ${time}` });
      };
      await item(second).waitFor();
      expect(await item(first).textContent()).toContain(`Reservada por ${doctorName} (usted)`);
      expect(await item(second).textContent()).toContain(`Reservada por ${doctorName} (usted)`);
      expect(await item(adminsHour).textContent()).toContain(`Reservada por ${adminName}`);
      // Nobody's raw account id is shown, and a doctor cannot cancel an admin's hour.
      expect(await list.textContent()).not.toContain(doctorId);
      expect(await item(adminsHour).getByRole('button', { name: 'Cancelar reserva' }).count()).toBe(0);

      await page.getByRole('button', { name: 'Mías' }).click();
      await item(adminsHour).waitFor({ state: 'detached' });
      expect(await item(first).count()).toBe(1);
      expect(await item(second).count()).toBe(1);
      await screenshot(page, 'admin-screens-rooms', true);

      await item(first).getByRole('button', { name: 'Cancelar reserva' }).click();
      const question = await answerDialog(page);
      expect(question.title).toBe('¿Cancelar la reserva?');
      expect(question.text).toContain(centreDateTime(first).time);
      expect((await answerDialog(page)).title).toBe('Reserva cancelada');
      await item(first).waitFor({ state: 'detached' });
      expect(await item(second).count()).toBe(1);

      const left = await stack.api.get<RoomReservationView[]>(
        '/room-calendar/reservations?room=consulta-1',
        admin,
      );
      const held = left.body.flatMap((reservation) => reservation.dates);
      expect(held).not.toContain(first);
      expect(held).toContain(second);
      expect(held).toContain(adminsHour);
      // The freed hour is offered again in the calendar.
      await page.locator(`[data-slot="${first}"]`).waitFor();
      await signOutThroughUi(page, stack.gatewayUrl);
    });

    it('an admin changes the centre phone in "Perfil del centro" and the public site shows it', async () => {
      const phoneTyped = `+34 922 555 0${index}${index}`;
      const phoneDigits = `349225550${index}${index}`;
      await signIn(page, BOOTSTRAP.admin);
      expect(await page.locator('#bo-sidebar-nav a[href="/doctor/centre"]').textContent()).toBe(
        'Perfil del centro',
      );
      await page.goto(`${stack.gatewayUrl}/doctor/centre`);
      const phone = page.getByLabel('Teléfono', { exact: true });
      await phone.waitFor();
      const email = page.getByLabel('Correo electrónico de contacto', { exact: true });
      const originalEmail = await email.inputValue();

      // A refusal of the server shows in Spanish under its field, and nothing is saved.
      await typeInto(email, 'no-es-un-correo');
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      expect(await fieldError(page, 'Correo electrónico de contacto')).toBe(
        'El correo electrónico de contacto no es válido',
      );

      await typeInto(email, originalEmail);
      await typeInto(phone, phoneTyped);
      await page.getByRole('button', { name: 'Guardar cambios' }).click();
      const saved = await answerDialog(page);
      expect(saved.title).toBe('Datos Actualizados');
      const profile = (await stack.api.get<CentreProfile>('/config/centre')).body;
      expect(profile.phone).toBe(phoneDigits);
      expect(saved.text).toContain(`versión ${profile.version}`);
      expect(profile.email).toBe(originalEmail);
      await screenshot(page, 'admin-screens-centre-profile', true);

      // The public site, in a visitor's tab (the gateway's copy is dropped by the profile's event).
      const visitor = await browser.context.newPage();
      await visitor.setViewportSize(viewport);
      await eventually(
        async () => {
          await visitor.goto(`${stack.gatewayUrl}/`);
          return visitor
            .locator(`header a[href="tel:+${phoneDigits}"]`)
            .waitFor({ timeout: 3000 })
            .then(() => true)
            .catch(() => undefined);
        },
        20000,
        'the new phone on the public site',
      );
      await visitor.close();
    });

    it('an admin adds a priced option to the clinical form, sees it in the preview, and saves a new version', async () => {
      const amount = 25 + index * 5;
      const optionText = `Informe ampliado — ${amount},00 €`;
      const before = (
        await stack.api.get<ViewConfigView>(
          `/config/view?view=${encodeURIComponent(RECORDS_VIEW)}`,
          await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password),
        )
      ).body;
      await page.goto(`${stack.gatewayUrl}/doctor/form-config`);
      expect(await page.locator('#bo-sidebar-nav a[href="/doctor/form-config"]').textContent()).toBe(
        'Formulario clínico',
      );
      const version = page.getByTestId('form-version');
      await version.waitFor();
      expect(await version.textContent()).toBe(String(before.version));

      await page.locator('summary', { hasText: 'Informe adicional' }).click();
      const editor = page.getByRole('group', { name: 'Campo extraReport' });
      await typeInto(editor.getByLabel('Nueva opción: importe'), String(amount));
      await typeInto(editor.getByLabel('Texto que se muestra (opcional)'), optionText);
      await editor.getByRole('button', { name: 'Añadir opción' }).click();
      await editor
        .getByRole('list', { name: 'Opciones de Informe adicional' })
        .getByRole('listitem')
        .filter({ hasText: `${optionText} (valor ${amount})` })
        .waitFor();

      const preview = page.getByRole('form', { name: 'Vista previa del formulario' });
      const report = preview.getByLabel('Informe adicional');
      const net = preview.getByLabel('Importe neto');
      await report.selectOption({ value: '0' });
      const without = await amountIn(net);
      await report.selectOption({ label: optionText });
      await eventually(
        async () => (Math.abs((await amountIn(net)) - (without + amount)) < 0.005 ? true : undefined),
        5000,
        'the preview counting the new option',
      );
      await screenshot(page, 'admin-screens-form-config', true);

      await page.getByRole('button', { name: 'Guardar nueva versión' }).click();
      const question = await answerDialog(page);
      expect(question.title).toBe('¿Guardar una nueva versión del formulario?');
      expect(question.text).toContain(`versión ${before.version + 1}`);
      const done = await answerDialog(page);
      expect(done).toEqual({
        title: 'Formulario guardado',
        text: `Se ha guardado la versión ${before.version + 1} del formulario.`,
      });
      await page
        .getByTestId('form-version')
        .getByText(String(before.version + 1), { exact: true })
        .waitFor();

      const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
      const after = await stack.api.get<ViewConfigView>(
        `/config/view?view=${encodeURIComponent(RECORDS_VIEW)}`,
        admin,
      );
      expect(after.body.version).toBe(before.version + 1);
      const options = after.body.fields.find((field) => field.name === 'extraReport')!.options;
      expect(options).toContainEqual({ value: String(amount), label: optionText });
      await signOutThroughUi(page, stack.gatewayUrl);
    });
  });
}
