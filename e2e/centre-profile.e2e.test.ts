/**
 * The centre profile (docs/product/centre-profile.md) in a real browser: every fact the public site shows
 * (brand, phone, address, prices, hours, holder) comes from `GET /api/v1/config/centre`; an ADMIN's
 * `PUT /api/v1/config/centre` shows on the next page load of "/", "/faqs", the terms and "/dates", with
 * none of the old values; while the profile loads the pages show neutral placeholders (the header does
 * not move), and without it they leave the facts out instead of breaking.
 * Screenshots at 1280 px and 390 px go to artifacts/screenshots/centre-*.png.
 */
import type { Page } from 'playwright-core';
import type { CentreProfile, CentreProfileBody } from '@crm/contracts';
import { screenshot, DESKTOP, type Browser } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { acceptCookies } from './support/dialogs';
import { BOOTSTRAP, startProduct, type Stack } from './support/product';

const PHONE = { width: 390, height: 844 };
const PROFILE_URL = '**/api/v1/config/centre';
/** What the ADMIN changes: the address, the phone (typed as a person would) and the check-up price. */
const changed = {
  address: 'Avenida Marítima del Norte 7, 38001 Santa Cruz de Tenerife',
  phoneTyped: '+34 922 555 666',
  phone: '34922555666',
  checkUp: 23.5,
};

let stack: Stack;
let browser: Browser;
let page: Page;
let original: CentreProfile;

/** What a visitor reads, written independently of the app's formatters: "23 €", "23,50 €". */
const euros = (amount: number): string =>
  `${Number.isInteger(amount) ? String(amount) : amount.toFixed(2).replace('.', ',')} €`;
/** "+34 922 555 666" for "34922555666". */
const spanishPhone = (digits: string): string =>
  `+${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8)}`;
/** A price as a whole token: "23 €" must not match inside "123 €" or "4,23 €". */
const priceToken = (amount: number): RegExp =>
  new RegExp(`(^|[^\\d,.])${euros(amount).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** Everything the page says, hidden accordion panels included (textContent, not innerText). */
const pageText = (p: Page): Promise<string> =>
  p.evaluate(() => (document.body.textContent ?? '').replace(/\s+/g, ' '));
const pageLinks = (p: Page): Promise<string[]> =>
  p.evaluate(() => [...document.querySelectorAll('a[href]')].map((a) => a.getAttribute('href') ?? ''));

/** Opens a page and waits for the profile's phone link in the header (React has the profile). */
async function open(p: Page, path: string, profile: CentreProfile): Promise<void> {
  await p.goto(`${stack.gatewayUrl}${path}`);
  await p.locator(`header a[href="tel:+${profile.phone}"]`).waitFor();
}

browserOnProduct(
  () => startProduct(),
  (started) => ({ stack, browser, page } = started),
  { consent: false },
);

beforeAll(async () => {
  const answer = await stack.api.get<CentreProfile>('/config/centre');
  expect(answer.status).toBe(200);
  original = answer.body;
}, 60000);

describe('the profile on "/"', () => {
  for (const viewport of [DESKTOP, PHONE]) {
    it(`shows its address, phone and price at ${viewport.width} px`, async () => {
      await page.setViewportSize(viewport);
      await open(page, '/', original);
      if (viewport === DESKTOP) await acceptCookies(page);

      const header = page.locator('header.site-header');
      const phoneLink = header.locator(`a[href="tel:+${original.phone}"]`);
      expect(await phoneLink.textContent()).toContain(spanishPhone(original.phone));
      expect(await phoneLink.isVisible()).toBe(true);
      const addressLink = header.locator('a[target="_blank"]');
      expect(await addressLink.getAttribute('href')).toBe(original.mapsUrl);
      expect(await addressLink.textContent()).toContain(original.address);
      expect(await header.locator('.brand__title').textContent()).toBe(original.brandName);
      expect(await header.locator('.brand__subtitle').textContent()).toBe(original.subtitle);

      const checkUp = euros(original.prices.checkUp);
      expect(await page.locator('#certificados .section__lead').textContent()).toContain(
        `Todos los reconocimientos cuestan ${checkUp} y`,
      );
      expect(await page.locator('.facts li').first().textContent()).toContain(checkUp);
      const contact = (await page.locator('#contacto').textContent()) ?? '';
      for (const fact of [original.address, spanishPhone(original.phone), original.email])
        expect(contact).toContain(fact);
      expect(contact).toContain('Lunes a viernes');
      expect(await page.locator('footer').textContent()).toContain(
        `© 2025 ${original.brandName} · ${original.subtitle}`,
      );
      expect(await page.title()).toBe(`${original.brandName} · ${original.subtitle}`);

      await screenshot(page, 'centre-home');
      await page.locator('#contacto').scrollIntoViewIfNeeded();
      await screenshot(page, 'centre-home-contact');
    });
  }

  it('serves index.html without any fact of the profile: its static first paint has placeholders', async () => {
    const html = await (await fetch(`${stack.gatewayUrl}/`, { headers: { accept: 'text/html' } })).text();
    for (const fact of [original.address, original.brandName, spanishPhone(original.phone), original.phone])
      expect(html).not.toContain(fact);
    expect(html).toContain('class="fact-placeholder"');
    expect(html).toContain('<link rel="preload" href="/api/v1/config/centre"');
  });

  it('asks for the profile once per page load (the app reuses the preloaded answer)', async () => {
    const requests: string[] = [];
    const count = (request: { url(): string }) => {
      if (request.url().endsWith('/api/v1/config/centre')) requests.push(request.url());
    };
    page.on('request', count);
    try {
      await page.setViewportSize(DESKTOP);
      await open(page, '/', original);
      await page.waitForLoadState('networkidle');
    } finally {
      page.off('request', count);
    }
    expect(requests).toHaveLength(1);
  });
});

let updated: CentreProfile;

describe("an ADMIN's change", () => {
  it('is stored by PUT /api/v1/config/centre as a new version', async () => {
    const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
    const { version: _version, updatedAt: _updatedAt, ...current } = original;
    const body: CentreProfileBody = {
      ...current,
      address: changed.address,
      mapsUrl: `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(changed.address)}`,
      phone: changed.phoneTyped,
      prices: { ...current.prices, checkUp: changed.checkUp },
    };
    const answer = await stack.api.put<CentreProfile>('/config/centre', body, admin);
    expect(answer.status).toBe(200);
    updated = answer.body;
    expect(updated.version).toBeGreaterThan(original.version);
    expect(updated.phone).toBe(changed.phone);
    // The gateway caches the profile; its invalidation follows the change's event.
    const deadline = Date.now() + 10_000;
    let served = await stack.api.get<CentreProfile>('/config/centre');
    while (served.body.version !== updated.version && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      served = await stack.api.get<CentreProfile>('/config/centre');
    }
    expect(served.body.version).toBe(updated.version);
  });

  const oldFacts = () => [original.address, spanishPhone(original.phone)];
  const expectNoneOfTheOld = async (p: Page, path: string) => {
    const text = await pageText(p);
    for (const fact of oldFacts())
      expect({ path, found: text.includes(fact), fact }).toEqual({ path, found: false, fact });
    expect({ path, oldPrice: priceToken(original.prices.checkUp).test(text) }).toEqual({
      path,
      oldPrice: false,
    });
    const links = await pageLinks(p);
    expect(links.filter((href) => href.includes(original.phone) || href === original.mapsUrl)).toEqual([]);
  };
  const expectNewHeader = async (p: Page) => {
    const header = p.locator('header.site-header');
    expect(await header.locator(`a[href="tel:+${changed.phone}"]`).textContent()).toContain(
      '+34 922 555 666',
    );
    expect(await header.locator('a[target="_blank"]').textContent()).toContain(changed.address);
  };

  for (const viewport of [DESKTOP, PHONE]) {
    describe(`on the next page load at ${viewport.width} px`, () => {
      beforeAll(async () => {
        await page.setViewportSize(viewport);
      });

      it('"/" shows the new address, phone and price', async () => {
        await open(page, '/', updated);
        await expectNewHeader(page);
        expect(await page.locator('#certificados .section__lead').textContent()).toContain('23,50 €');
        expect(await page.locator('.facts li').first().textContent()).toContain('23,50 €');
        const contact = (await page.locator('#contacto').textContent()) ?? '';
        expect(contact).toContain(changed.address);
        expect(contact).toContain('+34 922 555 666');
        await expectNoneOfTheOld(page, '/');
        await screenshot(page, 'centre-updated-home');
        await page.locator('#contacto').scrollIntoViewIfNeeded();
        await screenshot(page, 'centre-updated-home-contact');
      });

      it('"/faqs" shows the new price, DGT example, address and phone', async () => {
        await open(page, '/faqs', updated);
        await expectNewHeader(page);
        expect(
          await page.getByRole('region', { name: 'Transparencia: ¿qué voy a pagar?' }).textContent(),
        ).toContain('23,50 €');
        await page.getByRole('button', { name: 'Precios', exact: true }).click();
        const fee10 = euros(updated.prices.dgtFees['10']);
        const total = euros(
          Math.round(
            (changed.checkUp + updated.prices.dgtManagementFee + updated.prices.dgtFees['10']) * 100,
          ) / 100,
        );
        expect(await page.getByRole('region', { name: 'Precios', exact: true }).textContent()).toContain(
          `23,50 € + ${euros(updated.prices.dgtManagementFee)} + ${fee10} = ${total}`,
        );
        await page.getByRole('button', { name: 'Tasas de la DGT' }).click();
        expect(await page.getByRole('region', { name: 'Tasas de la DGT' }).textContent()).toContain(fee10);
        const text = await pageText(page);
        expect(text).toContain(changed.address); // "Instalaciones" and "Contacto"
        expect(text).toContain(`más de ${updated.prices.refundWindowHours} horas de antelación`);
        await expectNoneOfTheOld(page, '/faqs');
        await page.evaluate(() => window.scrollTo(0, 0));
        await screenshot(page, 'centre-updated-faqs', true);
      });

      it('the terms show the one new price, the holder at the new address and the refund window', async () => {
        await open(page, '/terms-and-conditions', updated);
        await expectNewHeader(page);
        const terms = (await page.locator('article.legal').textContent()) ?? '';
        expect(terms).toContain(
          'El precio de cada reconocimiento médico es de 23,50 €, impuestos incluidos.',
        );
        expect(terms).toContain(`pertenecen a ${updated.legalName}, con NIF ${updated.taxId}`);
        expect(terms).toContain(`inscrita en el ${updated.registry}, con domicilio en ${changed.address}`);
        expect(terms).toContain('+34 922 555 666');
        expect(terms).toContain(`con más de ${updated.prices.refundWindowHours} horas de antelación`);
        await expectNoneOfTheOld(page, '/terms-and-conditions');
        await screenshot(page, 'centre-updated-terms', true);
      });

      it('"/dates" shows the new price', async () => {
        await open(page, '/dates', updated);
        await expectNewHeader(page);
        expect(await page.locator('.booking-page .page__header p').textContent()).toContain(
          'El reconocimiento cuesta 23,50 €.',
        );
        expect(await page.title()).toBe(`Reservar Cita · ${updated.brandName}`);
        await expectNoneOfTheOld(page, '/dates');
        await screenshot(page, 'centre-updated-dates');
      });
    });
  }
});

describe('while the profile loads and when it cannot be loaded', () => {
  const pages: Array<[string, string, string]> = [
    ['home', '/', '.hero__title'],
    ['terms', '/terms-and-conditions', 'article.legal h1'],
  ];
  for (const viewport of [PHONE, DESKTOP]) {
    for (const [name, path, heading] of pages) {
      it(`shows placeholders on ${path} at ${viewport.width} px, then the facts, without moving the header or the page`, async () => {
        await page.setViewportSize(viewport);
        let release: () => void = () => undefined;
        const held = new Promise<void>((resolve) => (release = resolve));
        await page.route(PROFILE_URL, async (route) => {
          await held;
          await route.continue().catch(() => undefined); // the page may have moved on
        });
        try {
          await page.goto(`${stack.gatewayUrl}${path}`);
          await page.locator(heading).waitFor();
          await page.locator('header .fact-placeholder').first().waitFor();
          // React has mounted (the static copy of "/" in index.html has no menu button).
          await page.locator('button.menu-toggle').waitFor({ state: 'attached' });
          const positions = () =>
            page.evaluate(
              (selectors) =>
                selectors.map((selector) => document.querySelector(selector)?.getBoundingClientRect().bottom),
              ['.site-header__top', '.site-header__bar', heading],
            );
          const before = await positions();
          expect(await page.locator('header a[href^="tel:"]').count()).toBe(0);
          const text = await pageText(page);
          for (const fact of [changed.address, original.address, euros(changed.checkUp)])
            expect(text).not.toContain(fact);
          await screenshot(page, `centre-loading-${name}`);
          release();
          await page.locator('header a[href^="tel:"]').waitFor();
          expect(await positions()).toEqual(before);
        } finally {
          release();
          await page.unroute(PROFILE_URL);
        }
      });
    }
  }

  it('leaves the facts out, and keeps every page working, when the call fails', async () => {
    await page.setViewportSize(DESKTOP);
    await page.route(PROFILE_URL, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: '{"message":"Service Unavailable"}',
      }),
    );
    try {
      await page.goto(`${stack.gatewayUrl}/`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('#contacto').getByText('Esta información no está disponible').waitFor();
      expect(await page.locator('header a[href^="tel:"]').count()).toBe(0);
      expect(await page.locator('header .fact-placeholder').count()).toBe(0);
      expect(await page.locator('#certificados .section__lead').textContent()).toBe(
        'Todos los reconocimientos se emiten y envían a la administración en el momento.',
      );
      await screenshot(page, 'centre-unavailable-home');

      await page.goto(`${stack.gatewayUrl}/faqs`);
      await page.getByRole('heading', { name: 'Información y Preguntas Frecuentes' }).waitFor();
      expect(await page.locator('.accordion__button').count()).toBe(14);
      await page.getByRole('button', { name: 'Precios', exact: true }).click();
      await page
        .getByRole('region', { name: 'Precios', exact: true })
        .getByText('Esta información no está disponible')
        .waitFor();

      await page.goto(`${stack.gatewayUrl}/terms-and-conditions`);
      await page.getByRole('heading', { name: 'Términos y Condiciones de Contratación' }).waitFor();
      await page.locator('article.legal').getByText('Esta información no está disponible').first().waitFor();
      expect(await pageText(page)).not.toMatch(/\d €/);
      expect(await page.getByText('Unexpected Application Error!').count()).toBe(0);
    } finally {
      await page.unroute(PROFILE_URL);
    }
  });
});

it('logged no errors in the browser except the refused profile calls of the failure test', () => {
  expect(browser.errors.filter((e) => !/status of 503/.test(e))).toEqual([]);
});
