/**
 * The public site in a real browser: the cookie banner, deep links, the 404 page, role guards, a
 * missing remote, the doctor's patient picker, keyboard use, and screenshots of the main pages at
 * desktop (1280 px) and phone (390 px) widths into artifacts/screenshots/.
 */
import fs from 'node:fs';
import moment from 'moment-timezone';
import path from 'node:path';
import type { Page } from 'playwright-core';
import {
  appStarted,
  launchBrowser,
  REPO_ROOT,
  screenshot,
  DESKTOP,
  MOBILE,
  type Browser,
} from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { pickFutureSlot } from './support/booking';
import { answerDialog } from './support/dialogs';
import { BOOTSTRAP, createConfirmedPatient, startProduct, type Stack } from './support/product';
import { MONTH_NAMES } from '../packages/web-kit/src/time/calendar-names';

let stack: Stack;
let browser: Browser;
let page: Page;

browserOnProduct(
  () => startProduct(),
  (started) => ({ stack, browser, page } = started),
  { consent: false },
);

const consentBox = (p: Page) => p.locator('#cc-main .cm');

describe('cookie consent', () => {
  it('shows the banner on the first visit with the Spanish actions', async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    await consentBox(page).waitFor({ state: 'visible' });
    expect(await page.locator('#cm__title').textContent()).toBe('Configuración de privacidad');
    for (const label of ['Aceptar todas', 'Rechazar todas', 'Gestionar preferencias']) {
      expect(await consentBox(page).getByRole('button', { name: label }).isVisible()).toBe(true);
    }
    expect(
      await consentBox(page).getByRole('link', { name: 'Política de Privacidad' }).getAttribute('href'),
    ).toBe('/privacy-policy');
    await screenshot(page, 'home-consent');
  });

  it('stores cc_cookie for 182 days with only the necessary category', async () => {
    await consentBox(page).getByRole('button', { name: 'Rechazar todas' }).click();
    await consentBox(page).waitFor({ state: 'hidden' });
    const cookie = (await browser.context.cookies(stack.gatewayUrl)).find((c) => c.name === 'cc_cookie');
    expect(cookie).toBeDefined();
    expect(cookie!.path).toBe('/');
    expect(cookie!.sameSite).toBe('Lax');
    const days = (cookie!.expires * 1000 - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(181);
    expect(days).toBeLessThanOrEqual(182.01);
    const value = JSON.parse(decodeURIComponent(cookie!.value)) as { categories: string[] };
    expect(value.categories).toEqual(['necessary']);
  });

  it('never shows the banner again, on reload or on another page', async () => {
    await page.reload();
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForTimeout(800);
    expect(await consentBox(page).count()).toBe(0);
    await page.goto(`${stack.gatewayUrl}/faqs`);
    await page.getByRole('heading', { name: 'Información y Preguntas Frecuentes' }).waitFor();
    await page.waitForTimeout(800);
    expect(
      await consentBox(page)
        .isVisible()
        .catch(() => false),
    ).toBe(false);
  });

  it('opens "Configuración de privacidad" preferences from the footer', async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    await page.getByRole('button', { name: 'Preferencias de cookies' }).click();
    const preferences = page.locator('#cc-main .pm');
    await preferences.waitFor({ state: 'visible' });
    expect(await preferences.getByRole('button', { name: 'Guardar preferencias' }).isVisible()).toBe(true);
    await preferences.getByRole('button', { name: 'Guardar preferencias' }).click();
    await preferences.waitFor({ state: 'hidden' });
  });
});

describe('deep links and errors', () => {
  it('opens /faqs directly with 14 topics, the first open and one open at a time', async () => {
    await page.goto(`${stack.gatewayUrl}/faqs`);
    const buttons = page.locator('.accordion__button');
    await buttons.first().waitFor();
    expect(await buttons.count()).toBe(14);
    expect(await buttons.first().getAttribute('aria-expanded')).toBe('true');
    await page.getByRole('button', { name: 'Tasas de la DGT' }).click();
    expect(await buttons.first().getAttribute('aria-expanded')).toBe('false');
    expect(await page.getByRole('region', { name: 'Tasas de la DGT' }).textContent()).toContain('24,58 €');
    await page.getByRole('button', { name: 'Precios', exact: true }).click();
    expect(await page.getByRole('region', { name: 'Precios', exact: true }).textContent()).toContain(
      '53,58 €',
    );
    expect(await page.locator('.accordion__panel:not([hidden])').count()).toBe(1);
  });

  it('paints the static copy of the home screen before any JavaScript, on "/" only', async () => {
    const bare = await launchBrowser(); // its own browser: the blocked scripts log errors on purpose
    const other = await bare.newPage(MOBILE);
    try {
      // Only the inline route flag runs: what a visitor sees before the app starts.
      await other.route(/\.js$/, (route) => route.abort());
      await other.goto(`${stack.gatewayUrl}/`);
      expect(await other.getByRole('heading', { level: 1 }).textContent()).toBe(
        'Su certificado médico oficial, en el día y sin esperas',
      );
      await other.goto(`${stack.gatewayUrl}/faqs`);
      expect(await other.locator('.prerender-home').isVisible()).toBe(false);
      expect(await other.locator('.prerender-dates').isVisible()).toBe(false);
    } finally {
      await bare.close();
    }
  });

  it('paints the calendar of "/dates" before any JavaScript, this month at the centre, then the app takes over', async () => {
    let staticIntro: string | null = null;
    const bare = await launchBrowser();
    const other = await bare.newPage(MOBILE);
    try {
      await other.route(/\.js$/, (route) => route.abort());
      await other.goto(`${stack.gatewayUrl}/dates`);
      const atCentre = moment.tz('Atlantic/Canary');
      const today = atCentre.format('YYYY-MM-DD');
      expect(await other.locator('.prerender-dates .wk-calendar__title').textContent()).toBe(
        `${MONTH_NAMES[atCentre.month()]} ${atCentre.year()}`,
      );
      const todayButton = other.locator(`.prerender-dates button[data-day="${today}"]`);
      expect(await todayButton.getAttribute('class')).toContain('wk-calendar__day--today');
      expect(await todayButton.isDisabled()).toBe(false);
      const days = other.locator('.prerender-dates .wk-calendar__grid button');
      expect(await days.count()).toBe(atCentre.daysInMonth());
      if (!today.endsWith('-01')) expect(await days.first().isDisabled()).toBe(true);
      // The introduction is completed from the centre profile, as the app words it (checked below).
      const intro = '.prerender-dates .page__header p';
      await other.waitForFunction((p) => document.querySelector(p)?.textContent?.includes('€'), intro);
      staticIntro = await other.locator(intro).textContent();
      expect(staticIntro).toMatch(
        /^Elija un día y una hora libre\. Atendemos de lunes a viernes de .+ \(hora de Canarias\)\. El reconocimiento cuesta \d+ €\.$/,
      );
      await screenshot(other, 'dates-first-screen');
      await other.setViewportSize(DESKTOP);
      await screenshot(other, 'dates-first-screen');
      // A reschedule ("cambiar") is another page: no pre-rendered booking calendar there.
      await other.goto(`${stack.gatewayUrl}/dates?cambiar=1`);
      expect(await other.locator('.prerender-dates').isVisible()).toBe(false);
    } finally {
      await bare.close();
    }
    // With the scripts, the app's calendar replaces the static one: same month, days that respond.
    await page.goto(`${stack.gatewayUrl}/dates`);
    await appStarted(page);
    const firstOpenDay = page.locator('.booking-page .wk-calendar__grid button:not([disabled])').first();
    await firstOpenDay.click();
    await page.locator('.booking-page .wk-calendar__grid button[aria-pressed="true"]').waitFor();
    expect(await page.locator('.booking-page .page__header p').textContent()).toBe(staticIntro);
  });

  it('answers an unknown path with the bare 404 heading', async () => {
    const response = await page.goto(`${stack.gatewayUrl}/esto/no/existe`);
    expect(response?.status()).toBe(200); // the SPA shell, which renders the 404
    await page.getByRole('heading', { level: 1, name: '404' }).waitFor();
    expect(await page.locator('header').count()).toBe(0);
  });

  it('sends a visitor from /user and /doctor/* to /login', async () => {
    await page.goto(`${stack.gatewayUrl}/user`);
    await page.waitForURL('**/login');
    await page.goto(`${stack.gatewayUrl}/doctor/appointments`);
    await page.waitForURL('**/login');
    await page.goto(`${stack.gatewayUrl}/onboarding`);
    await page.waitForURL('**/login');
  });
});

describe('header', () => {
  it('is white on "/" and black elsewhere, with the phone, address and menus of each page', async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    const nav = page.getByRole('navigation', { name: 'Principal' });
    await nav.waitFor(); // rendered by React (index.html only carries a static copy of "/")
    const color = () => page.locator('header.site-header').evaluate((el) => getComputedStyle(el).color);
    expect(await color()).toBe('rgb(255, 255, 255)');
    const names = async () =>
      (await nav.locator('.site-nav__list > li > :first-child').allTextContents()).map((t) => t.trim());
    expect(await names()).toEqual([
      'Inicio',
      'Citas',
      'Certificados',
      'Nosotros',
      'Contacto',
      'Preguntas Frecuentes',
      'Acceso',
    ]);
    expect(await page.locator('header a[href^="tel:+34"]').count()).toBe(1);
    expect(await page.locator('header a[href*="google.com/maps"]').count()).toBe(1);

    await page.goto(`${stack.gatewayUrl}/dates`);
    await nav.waitFor();
    expect(await color()).toBe('rgb(17, 17, 17)');
    expect(await names()).toEqual(['Inicio', 'Citas', 'Acceso']);
  });

  it('becomes sticky after 116 px of scroll and scrolls to a section from the menu', async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    await page.getByRole('link', { name: 'Contacto', exact: true }).click();
    await page.waitForFunction(() => window.scrollY > 116);
    await page.waitForFunction(() =>
      document.querySelector('header.site-header')?.classList.contains('is-sticky'),
    );
    await page.waitForTimeout(600);
    expect(await page.getByRole('heading', { name: 'Contacto', level: 2 }).isVisible()).toBe(true);
  });

  it('sends the phone conversion to the analytics tag when there is one', async () => {
    await page.goto(`${stack.gatewayUrl}/`);
    await page.locator('header a[href^="tel:"]').waitFor();
    await page.evaluate(() => {
      const calls: unknown[] = [];
      (window as unknown as { gtagCalls: unknown[] }).gtagCalls = calls;
      (window as unknown as { gtag: (...args: unknown[]) => void }).gtag = (...args: unknown[]) =>
        calls.push(args);
      // A real tel: navigation would hand the page to the system's dialer and block further input.
      document.addEventListener(
        'click',
        (e) => {
          if ((e.target as Element).closest('a[href^="tel:"]')) e.preventDefault();
        },
        true,
      );
    });
    await page.locator('header a[href^="tel:"]').click();
    const calls = await page.evaluate(() => (window as unknown as { gtagCalls: unknown[] }).gtagCalls);
    expect(calls).toEqual([['event', 'conversion', { value: 1, currency: 'EUR' }]]);
  });

  it('is usable with the keyboard: skip link first, visible focus', async () => {
    await page.goto(`${stack.gatewayUrl}/dates`);
    await appStarted(page);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Saltar al contenido');
    await page.keyboard.press('Tab');
    const outline = await page.evaluate(
      () => getComputedStyle(document.activeElement as Element).outlineStyle,
    );
    expect(outline).not.toBe('none');
  });
});

describe('staff', () => {
  it('signs a doctor in to /doctor/appointments, where a missing remote fails gracefully', async () => {
    await page.goto(`${stack.gatewayUrl}/login`);
    await page.getByLabel('Correo Electrónico').fill(BOOTSTRAP.doctor.email);
    await page.getByLabel('Contraseña', { exact: true }).fill(BOOTSTRAP.doctor.password);
    await page.getByRole('button', { name: 'Acceder' }).click();
    expect((await answerDialog(page)).title).toBe('Inicio de sesión exitoso');
    await page.waitForURL('**/doctor/appointments');
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('Unexpected Application Error!').count()).toBe(0);
    if (!fs.existsSync(path.join(REPO_ROOT, 'frontends', 'backoffice', 'dist', 'remoteEntry.js'))) {
      await page.getByRole('heading', { name: 'Esta sección no está disponible en este momento' }).waitFor();
    }
    await screenshot(page, 'doctor-remote');
  });

  it('books for a patient picked by exact name in "Seleccione un paciente"', async () => {
    await createConfirmedPatient(stack, 'Pedro Suárez Medina');
    await page.goto(`${stack.gatewayUrl}/dates`);
    await pickFutureSlot(page, { nth: 1, slot: 5 });
    const modal = page.getByRole('dialog', { name: 'Seleccione un paciente' });
    await modal.waitFor();
    await modal.getByLabel('Nombre del paciente').fill('Pedro Suárez');
    await modal.getByRole('button', { name: 'Agendar Cita' }).click();
    expect(await answerDialog(page)).toEqual({ title: 'Error', text: 'Paciente no encontrado' });
    await modal.getByLabel('Nombre del paciente').fill('Pedro Suárez Medina');
    await screenshot(page, 'dates-patient-picker');
    await modal.getByRole('button', { name: 'Agendar Cita' }).click();
    await answerDialog(page, 'confirm');
    expect((await answerDialog(page)).title).toBe('Reserva exitosa');
    await page.goto(`${stack.gatewayUrl}/signOut`);
    await answerDialog(page);
    await page.waitForURL(`${stack.gatewayUrl}/`);
  });
});

describe('screenshots of the main pages', () => {
  beforeAll(async () => {
    await page.evaluate(() => localStorage.removeItem('token'));
  });

  const pages: Array<[string, string, string]> = [
    ['home', '/', 'Su certificado médico oficial, en el día y sin esperas'],
    ['dates', '/dates', 'Reserve su cita'],
    ['faqs', '/faqs', 'Información y Preguntas Frecuentes'],
    ['login', '/login', 'Iniciar Sesión'],
    ['signup', '/signup', 'Registro de Paciente'],
    ['forgot-password', '/forgot-password', 'Recuperar Contraseña'],
    ['terms', '/terms-and-conditions', 'Términos y Condiciones de Contratación'],
    ['privacy-policy', '/privacy-policy', 'Política de Privacidad'],
  ];

  for (const viewport of [DESKTOP, MOBILE]) {
    it(`renders every page at ${viewport.width} px without horizontal scrolling`, async () => {
      await page.setViewportSize(viewport);
      for (const [name, url, heading] of pages) {
        await page.goto(`${stack.gatewayUrl}${url}`);
        await page.getByRole('heading', { level: 1, name: heading }).waitFor();
        if (name === 'dates') {
          await page.getByRole('button', { name: 'Mes siguiente' }).click();
          await page
            .locator(
              '.wk-calendar__day:not(.wk-calendar__day--weekend):not(.wk-calendar__day--closed):not([disabled])',
            )
            .first()
            .click();
          await page.locator('.wk-slot').first().waitFor();
        }
        await page.waitForTimeout(300);
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
        expect({ name, overflow }).toEqual({ name, overflow: 0 });
        await screenshot(page, name, true);
      }
      await page.setViewportSize(DESKTOP);
    });
  }

  it('shows the "No hay Horiarios disponibles" text for a weekend day', async () => {
    await page.goto(`${stack.gatewayUrl}/dates`);
    await page.getByRole('button', { name: 'Mes siguiente' }).click();
    const weekend = page.locator('.wk-calendar__day--weekend:not([disabled])').first();
    const day = await weekend.getAttribute('data-day');
    await weekend.click();
    const [y, m, d] = (day ?? '').split('-');
    await page.getByText(`No hay Horiarios disponibles para ${d}/${m}/${y}`).waitFor();
    // The month's Spanish name, capitalised ("Enero 2027"), as the ICU data of Node names it.
    const month = new Intl.DateTimeFormat('es-ES', { month: 'long', timeZone: 'UTC' }).format(
      new Date(Date.UTC(Number(y), Number(m) - 1, 15)),
    );
    expect(await page.locator('.wk-calendar__title').textContent()).toBe(
      `${month[0]!.toUpperCase()}${month.slice(1)} ${y}`,
    );
    expect(await page.locator('.wk-calendar__weekday').allTextContents()).toEqual([
      'D',
      'L',
      'M',
      'M',
      'J',
      'V',
      'S',
    ]);
  });
});

it('logged no errors in the browser except the missing remote and refused calls', () => {
  const unexpected = browser.errors.filter(
    (e) => !/status of 40[134]/.test(e) && !/remoteEntry|backoffice|federation|RUNTIME-/i.test(e),
  );
  expect(unexpected).toEqual([]);
});
