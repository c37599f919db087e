/**
 * The centre's closures in a real browser. A visitor on a first visit (no cookies) opens /dates and
 * picks a day the admin closed: the day is marked closed and offers no slots (390 and 1280 px). An
 * ADMIN opens "Cierres y festivos" from the menu, sees the year's official holidays (not removable)
 * and adds a local holiday by typing it; the public calendar closes that day.
 * Screenshots: artifacts/screenshots/closed-day-{390,1280}.png, centre-closures-editor-{390,1280}.png.
 */
import moment from 'moment-timezone';
import type { Page } from 'playwright-core';
import { CENTRE_TIME_ZONE, dayStatus, type CentreProfile } from '@crm/contracts';
import { appStarted, DESKTOP, launchBrowser, screenshot, type Browser } from './support/browser';
import { acceptCookies, answerDialog } from './support/dialogs';
import { BOOTSTRAP, startFullProduct, type Stack } from './support/product';

const PHONE = { width: 390, height: 844 };
let stack: Stack;
const browsers: Browser[] = [];

/** Working days of the month after next (always shown by "Mes siguiente" twice), not holidays. */
function workingDaysAhead(): string[] {
  const day = moment.tz(CENTRE_TIME_ZONE).add(2, 'months').startOf('month');
  const days: string[] = [];
  for (const month = day.month(); day.month() === month; day.add(1, 'day')) {
    const iso = day.format('YYYY-MM-DD');
    if (day.isoWeekday() <= 5 && dayStatus(iso).open) days.push(iso);
  }
  return days;
}
const [closedDay, typedHolidayAtDesktop, typedHolidayAtPhone] = workingDaysAhead();
const dayText = (iso: string) => moment(iso).format('DD/MM/YYYY');

beforeAll(async () => {
  stack = await startFullProduct(['backoffice']);
  const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  const saved = await stack.api.put(
    '/config/centre/closures',
    { localHolidays: [], closures: [{ from: closedDay, to: closedDay, reason: 'Obras en el centro' }] },
    admin,
  );
  expect(saved.status).toBe(200);
}, 120_000);
afterAll(async () => {
  for (const browser of browsers) await browser.close();
  await stack?.stop();
});

/** A fresh browser (no cookies, no storage) at `viewport`. */
async function firstVisit(viewport: { width: number; height: number }): Promise<Page> {
  const browser = await launchBrowser();
  browsers.push(browser);
  return browser.newPage(viewport);
}

/** On /dates, shows the month after next and clicks `day`. */
async function pickDay(page: Page, day: string): Promise<void> {
  for (let i = 0; i < 2; i++) await page.getByRole('button', { name: 'Mes siguiente' }).click();
  await page.locator(`.wk-calendar__day[data-day="${day}"]`).click();
}

describe('a closed day offers no slots (signed out, first visit)', () => {
  for (const viewport of [PHONE, DESKTOP]) {
    it(`at ${viewport.width} px: marked closed, says why, no slot to pick`, async () => {
      const page = await firstVisit(viewport);
      await page.goto(`${stack.gatewayUrl}/dates`);
      await appStarted(page);
      await acceptCookies(page);
      await pickDay(page, closedDay);
      const button = page.locator(`.wk-calendar__day[data-day="${closedDay}"]`);
      expect(await button.getAttribute('class')).toContain('wk-calendar__day--closed');
      expect(await button.getAttribute('aria-label')).toContain('cerrado: Obras en el centro');
      const notice = page.locator(`[data-closed-day="${closedDay}"]`);
      await notice.waitFor();
      expect(await notice.textContent()).toBe(
        `El centro está cerrado el ${dayText(closedDay)} (Obras en el centro). Elija otro día.`,
      );
      expect(await page.locator('.wk-slot').count()).toBe(0);
      await screenshot(page, 'closed-day');

      // An open day of the same month still offers its slots.
      await page.locator(`.wk-calendar__day[data-day="${typedHolidayAtDesktop}"]`).click();
      await page.locator('.wk-slot').first().waitFor();
      expect(await page.locator('.wk-slot').count()).toBe(28);
    });
  }
});

describe('an ADMIN adds a local holiday in "Cierres y festivos"', () => {
  for (const [viewport, holiday] of [
    [DESKTOP, typedHolidayAtDesktop],
    [PHONE, typedHolidayAtPhone],
  ] as const) {
    it(`at ${viewport.width} px, typing it with the keyboard`, async () => {
      const page = await firstVisit(viewport);
      await page.goto(`${stack.gatewayUrl}/login`);
      await appStarted(page);
      await acceptCookies(page);
      await page.getByLabel('Correo Electrónico').pressSequentially(BOOTSTRAP.admin.email);
      await page.getByLabel('Contraseña', { exact: true }).pressSequentially(BOOTSTRAP.admin.password);
      await page.getByRole('button', { name: 'Acceder' }).click();
      await answerDialog(page);
      await page.waitForURL('**/doctor/**');
      await page.goto(`${stack.gatewayUrl}/doctor/centre/closures`);
      await page.getByRole('heading', { name: 'Cierres y festivos' }).waitFor();

      // This year's official holidays are listed and cannot be removed.
      const year = new Date().getFullYear();
      const holidays = page.getByRole('list', { name: `Festivos de ${year}` });
      await holidays.getByText('Natividad del Señor').waitFor();
      expect(await holidays.getByText('Festivo de Canarias').count()).toBe(2);
      expect(await holidays.getByRole('button', { name: /Quitar/ }).count()).toBe(0);

      const form = page.getByRole('form', { name: 'Añadir un festivo local' });
      await form.getByLabel('Fecha (dd/mm/aaaa)').pressSequentially(dayText(holiday));
      await form.getByLabel('Nombre del festivo').pressSequentially('Fiesta de San Juan');
      await form.getByRole('button', { name: 'Añadir festivo local' }).click();
      const saved = await answerDialog(page);
      expect(saved.title).toBe('Cierres guardados');
      expect(await form.getByLabel('Fecha (dd/mm/aaaa)').inputValue()).toBe('');

      const profile = await stack.api.get<CentreProfile>('/config/centre');
      expect(profile.body.closures?.localHolidays).toContainEqual({
        date: holiday,
        name: 'Fiesta de San Juan',
      });
      expect(profile.body.closures?.closures).toEqual([
        { from: closedDay, to: closedDay, reason: 'Obras en el centro' },
      ]);
      // Shown in that year's list, removable.
      if (holiday.startsWith(String(year + 1)))
        await page.getByRole('button', { name: 'Año siguiente' }).click();
      await page
        .getByRole('button', { name: `Quitar el festivo Fiesta de San Juan del ${dayText(holiday)}` })
        .waitFor();
      await screenshot(page, 'centre-closures-editor', true);

      // The public calendar closes that day.
      await page.goto(`${stack.gatewayUrl}/dates`);
      await pickDay(page, holiday);
      await page.locator(`[data-closed-day="${holiday}"]`).waitFor();
      expect(await page.locator('.wk-slot').count()).toBe(0);
    });
  }
});
