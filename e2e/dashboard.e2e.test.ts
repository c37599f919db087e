/**
 * "Panel" (docs/product/back-office.md#dashboard) in real Chromium against the running product (auth,
 * appointments, config and the reporting service behind the gateway, serving the shell and the back office):
 * an ADMIN follows the sidebar's "Panel", picks the seeded week and reads its totals and charts; the chart
 * library is downloaded only then; a DOCTOR has no such entry and no figures.
 *
 * The week (3–9 June 2024) is published on the stack's exchange as the appointments and records
 * services publish it, with the contracts' envelopes (services/reporting/test/support/seeded-week.ts).
 */
import type { Page } from 'playwright-core';
import type { ReportSummary } from '@crm/contracts';
import { eventually, publishEnvelopes } from '@crm/testing';
import { signInThroughUi } from './support/session';
import { screenshot, DESKTOP } from './support/browser';
import { browserOnProduct } from './support/browser-product';
import { BOOTSTRAP, startProductServing, type Stack } from './support/product';
import { appointment, centsWeek, payment, seededWeek } from '../services/reporting/test/support/seeded-week';

const PHONE = { width: 390, height: 844 };
const week = seededWeek();

let stack: Stack;
let page: Page;

browserOnProduct(
  () => startProductServing(['auth', 'appointments', 'config', 'reporting'], ['shell', 'backoffice']),
  (started) => ({ stack, page } = started),
);

beforeAll(async () => {
  const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  await publishEnvelopes(stack.busUrl, stack.exchange, week.events);
  await eventually(
    async () => {
      const answer = await stack.api.get<ReportSummary>(
        `/reports/summary?from=${week.from}&to=${week.to}`,
        admin,
      );
      return answer.body.totals?.booked === 8 && answer.body.totals.revenue === 124 ? true : undefined;
    },
    30_000,
    'the seeded week in the read model',
  );
}, 120_000);

const figure = async (name: string) =>
  ((await page.locator(`[data-figure="${name}"]`).textContent()) ?? '').replace(/\s+/g, ' ').trim();

async function showWeek() {
  const form = page.getByRole('form', { name: 'Periodo' });
  await form.getByLabel('Desde').fill(week.from);
  await form.getByLabel('Hasta').fill(week.to);
  await form.getByRole('button', { name: 'Ver' }).click();
  await page.locator('[data-figure="booked"]').filter({ hasText: /^8$/ }).waitFor();
}

/** Waits until the read model's summary of the period satisfies `ready` (the events published before). */
async function summaryOnceReady(
  period: { from: string; to: string },
  ready: (summary: ReportSummary) => boolean,
  what: string,
): Promise<void> {
  const admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  await eventually(
    async () => {
      const answer = await stack.api.get<ReportSummary>(
        `/reports/summary?from=${period.from}&to=${period.to}`,
        admin,
      );
      return ready(answer.body) ? true : undefined;
    },
    30_000,
    what,
  );
  if (!(await page.evaluate(() => localStorage.getItem('token')))) {
    await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  }
}

/** The Panel of the period, as the admin asks for it; returns the period form. */
async function showPeriod(period: { from: string; to: string }) {
  await page.goto(`${stack.gatewayUrl}/doctor/dashboard`);
  const form = page.getByRole('form', { name: 'Periodo' });
  await form.getByLabel('Desde').fill(period.from);
  await form.getByLabel('Hasta').fill(period.to);
  await form.getByRole('button', { name: 'Ver' }).click();
  return form;
}

it('ADMIN: "Panel" shows the totals of the seeded week and its charts; recharts loads only there', async () => {
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(request.url());
  });
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
  await page.waitForURL('**/doctor/appointments');
  expect(scripts.some((url) => /DashboardCharts/.test(url))).toBe(false);

  await page.getByRole('link', { name: 'Panel', exact: true }).click();
  await page.waitForURL('**/doctor/dashboard');
  await page.getByRole('heading', { name: 'Panel' }).waitFor();
  await showWeek();

  expect(await figure('booked')).toBe('8');
  expect(await figure('walkIns')).toBe('1');
  expect(await figure('occupancy')).toBe('2,1 %'); // 3 of the week's 140 grid slots
  expect(await figure('attended')).toBe('3');
  expect(await figure('noShow')).toBe('1 (25 %)');
  expect(await figure('refundable')).toBe('1');
  expect(await figure('nonRefundable')).toBe('1');
  expect(await figure('revenue')).toBe('124,00 €');

  // Five charts, each an SVG drawn by recharts, with the channels' legend.
  await page.locator('.bo-dashboard__chart .recharts-surface').nth(4).waitFor();
  expect(await page.locator('.bo-dashboard__chart svg.recharts-surface').count()).toBeGreaterThanOrEqual(5);
  await page.getByText('Web (paciente)').first().waitFor();
  await page.getByText('Licencia de armas').first().waitFor();
  expect(scripts.some((url) => /DashboardCharts/.test(url))).toBe(true);
  await page.waitForTimeout(600); // the charts' entry animation
  await screenshot(page, 'dashboard-admin', true);
});

it('ADMIN on a phone (390×844): the same figures, the charts one under the other', async () => {
  await page.setViewportSize(PHONE);
  await page.reload();
  await page.getByRole('heading', { name: 'Panel' }).waitFor();
  await showWeek();
  expect(await figure('revenue')).toBe('124,00 €');
  await page.locator('.bo-dashboard__chart .recharts-surface').nth(4).waitFor();
  const widths = await page
    .locator('.bo-dashboard__chart')
    .evaluateAll((charts) => charts.map((chart) => chart.getBoundingClientRect().width));
  expect(widths.every((width) => width <= PHONE.width)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  await page.waitForTimeout(600);
  await screenshot(page, 'dashboard-admin', true);
  await page.setViewportSize(DESKTOP);
});

it('ADMIN: every amount and decimal of "Panel" is Spanish ("1,75 €", axes "0,5"), on a phone and a desktop', async () => {
  const cents = centsWeek();
  await publishEnvelopes(stack.busUrl, stack.exchange, cents.events);
  await summaryOnceReady(
    cents,
    (summary) => summary.totals?.revenue === 1.75,
    'the cents week in the read model',
  );
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    await showPeriod(cents);
    await page.locator('[data-figure="booked"]').filter({ hasText: /^2$/ }).waitFor();
    expect(await figure('revenue')).toBe('1,75 €');

    // The revenue chart's tooltip, on the first day's bar.
    const revenueChart = page.locator('.bo-dashboard__chart').filter({ hasText: 'Ingresos por día' });
    await revenueChart.locator('.recharts-bar-rectangle').first().hover();
    const tooltip = revenueChart.locator('.recharts-tooltip-wrapper');
    await tooltip.filter({ hasText: '€' }).waitFor();
    expect((await tooltip.innerText()).replace(/\s+/g, ' ')).toContain('1,25 €');

    // Axis ticks (SVG text) and figures: decimals with a comma, never with a dot.
    const ticks = await page.locator('.bo-dashboard .recharts-cartesian-axis-tick-value').allTextContents();
    expect(ticks.some((tick) => /^\d+,\d+$/.test(tick.trim()))).toBe(true);
    const shown = `${await page.locator('.bo-dashboard').innerText()} ${ticks.join(' ')}`;
    expect(shown.match(/\d\.\d{1,2}(?!\d)/g) ?? []).toEqual([]);
    expect(shown).not.toMatch(/\u00a0€/);
  }
});

it("ADMIN: the period's money (taken, refunded, net, pending, by method) in euros, and the invoices export button, on a phone and a desktop", async () => {
  // 2–8 September 2024: a card payment of 1234,50 € later refunded, Bizum 19 € paying the check-up
  // of an appointment on the 3rd, cash 25,50 €; an appointment on the 4th unpaid (19 € pending).
  const period = { from: '2024-09-02', to: '2024-09-08' };
  const card = payment('card', 123450, '2024-09-02T09:00:00.000Z');
  const paid = appointment('2024-09-03T09:00:00.000Z', 'patient');
  const unpaid = appointment('2024-09-04T09:00:00.000Z', 'staff');
  await publishEnvelopes(stack.busUrl, stack.exchange, [
    paid.booked(),
    unpaid.booked(),
    card.succeeded(),
    payment('bizum', 1900, '2024-09-03T10:00:00.000Z', paid.id).succeeded(),
    payment('cash', 2550, '2024-09-04T11:00:00.000Z').succeeded(),
    card.refunded('2024-09-05T12:00:00.000Z'),
  ]);
  await summaryOnceReady(
    period,
    (summary) =>
      summary.totals?.money?.refundedCents === 123450 && summary.totals.money.pendingCents === 1900,
    'the payments in the read model',
  );
  for (const viewport of [PHONE, DESKTOP]) {
    await page.setViewportSize(viewport);
    const form = await showPeriod(period);
    await page.locator('[data-figure="moneyTaken"]').filter({ hasText: '1279,00 €' }).waitFor();
    expect(await figure('moneyRefunded')).toBe('1234,50 €');
    expect(await figure('moneyNet')).toBe('44,50 €');
    expect(await figure('moneyPending')).toBe('19,00 €');
    await page.getByText('Pendiente de cobro', { exact: true }).waitFor();
    const rows = await page
      .getByRole('table', { name: 'Por método de pago' })
      .locator('tbody tr')
      .evaluateAll((trs) => trs.map((tr) => (tr as HTMLElement).innerText.replace(/\s+/g, ' ').trim()));
    expect(rows).toEqual([
      'Bizum 19,00 € 0,00 € 19,00 €',
      'Tarjeta 1234,50 € 1234,50 € 0,00 €',
      'Efectivo 25,50 € 0,00 € 25,50 €',
    ]);
    await form.getByRole('button', { name: 'Exportar facturas (CSV)' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      viewport.width,
    );
    await screenshot(page, 'dashboard-money', true);
  }
});

it('a DOCTOR sees no "Panel" entry and no figures at /doctor/dashboard', async () => {
  await page.evaluate(() => localStorage.removeItem('token'));
  await signInThroughUi(page, stack.gatewayUrl, BOOTSTRAP.doctor.email, BOOTSTRAP.doctor.password);
  await page.waitForURL('**/doctor/appointments');
  await page.getByRole('link', { name: 'Citas', exact: true }).waitFor();
  expect(await page.getByRole('link', { name: 'Panel', exact: true }).count()).toBe(0);
  await page.goto(`${stack.gatewayUrl}/doctor/dashboard`);
  await page.getByText('Solo un administrador puede ver el panel.').waitFor();
  expect(await page.locator('[data-figure]').count()).toBe(0);
});
