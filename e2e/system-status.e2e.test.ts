/**
 * "Estado del sistema" in real Chromium at 1280 px and 390 px, each width a first visit with no
 * cookies and every value typed key by key: an ADMIN signs in, opens the page from the menu, sees
 * the services and a dead letter (a consumer of the stack's own that fails, as the appointments
 * broker user), and discards it with a reason typed in the Spanish dialog; it is gone and the
 * access trail has the reason. A DOCTOR does not see the menu entry.
 * Screenshot: artifacts/screenshots/system-status-1280.png.
 */
import type { Page } from 'playwright-core';
import { configCentreUpdated, type AuditPage, type DeadLetterView } from '@crm/contracts';
import { createEnvelope } from '@crm/event-bus';
import { eventually, publishEnvelopes, uniqueId } from '@crm/testing';
import { signOutThroughUi, staffSignsInTyping, typeInto } from './support/session';
import { appStarted, launchBrowser, screenshot, DESKTOP, MOBILE, type Browser } from './support/browser';
import { acceptCookies, answerDialog } from './support/dialogs';
import { BOOTSTRAP, startProductServing, type Stack } from './support/product';
import { systemCheckConsumer } from '../test-support/failing-consumer';

let stack: Stack;
let consumer: Awaited<ReturnType<typeof systemCheckConsumer>> | undefined;
let queue: string;
let admin: string;

beforeAll(async () => {
  stack = await startProductServing(['auth', 'audit', 'reporting'], ['shell', 'backoffice']);
  consumer = await systemCheckConsumer(
    stack,
    () => {
      throw new Error('perfil del centro ilegible');
    },
    { maxAttempts: 1 },
  );
  queue = consumer.queue;
  admin = await stack.signIn(BOOTSTRAP.admin.email, BOOTSTRAP.admin.password);
}, 120000);
afterAll(async () => {
  await consumer?.close();
  await stack?.stop();
});

const signIn = (page: Page, account: { email: string; password: string }) =>
  staffSignsInTyping(page, stack.gatewayUrl, account);

/** Dead-letters one event on the stack's failing consumer; answers its id once listed. */
async function deadLetter(): Promise<string> {
  const event = createEnvelope(configCentreUpdated, { version: 7 }, uniqueId());
  await publishEnvelopes(stack.busUrl, stack.exchange, [event]);
  await eventually(
    async () => {
      const answer = await stack.api.get<{ deadLetters: DeadLetterView[] }>(
        `/system/dead-letters?queue=${queue}`,
        admin,
      );
      if (answer.body.deadLetters?.some((d) => d.eventId === event.id)) return true;
      throw new Error(`${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
    },
    20000,
    'the event in the dead letters',
  );
  return event.id;
}

for (const viewport of [DESKTOP, MOBILE]) {
  describe(`at ${viewport.width} px`, () => {
    let browser: Browser;
    let page: Page;
    beforeAll(async () => {
      browser = await launchBrowser();
      page = await browser.newPage(viewport);
      expect(await page.context().cookies()).toEqual([]);
      await page.goto(`${stack.gatewayUrl}/`);
      await appStarted(page);
      await page.locator('#cc-main .cm__btn[data-role="all"]').waitFor({ timeout: 45000 });
      await acceptCookies(page);
    }, 90000);
    afterAll(async () => {
      await browser?.close();
    });

    it('an ADMIN sees the services and a dead letter, and discards it with a reason', async () => {
      const eventId = await deadLetter();
      await signIn(page, BOOTSTRAP.admin);
      if (viewport.width < 768) await page.getByRole('button', { name: 'Menú' }).click();
      await page.locator('#bo-sidebar-nav a[href="/doctor/system"]').click();
      await page.getByRole('heading', { name: 'Estado del sistema' }).waitFor();
      const services = page.getByRole('table', { name: 'Servicios' });
      await services
        .getByRole('row')
        .filter({ hasText: 'reporting' })
        .filter({ hasText: 'Operativo' })
        .waitFor();
      await services
        .getByRole('row')
        .filter({ hasText: 'gateway' })
        .filter({ hasText: 'Operativo' })
        .waitFor();
      const letter = page.getByRole('listitem').filter({ hasText: eventId });
      await letter.waitFor();
      expect(await letter.textContent()).toContain(
        'handler failed 1 times: Error: perfil del centro ilegible',
      );
      expect(await letter.textContent()).toContain('config.centre.updated.v1');
      if (viewport.width === DESKTOP.width) await screenshot(page, 'system-status', true);

      await letter.getByRole('button', { name: 'Descartar' }).click();
      const dialog = page.getByRole('dialog', { name: '¿Descartar el mensaje?' });
      await dialog.getByRole('button', { name: 'Descartar mensaje' }).click();
      expect(await dialog.getByRole('alert').textContent()).toBe('Indique el motivo (al menos 3 caracteres)');
      const reason = `Prueba a ${viewport.width} px sin efecto`;
      await typeInto(dialog.getByLabel('Motivo'), reason);
      await dialog.getByRole('button', { name: 'Descartar mensaje' }).click();
      expect((await answerDialog(page)).title).toBe('Mensaje descartado');
      await letter.waitFor({ state: 'detached' });

      const trail = await eventually(
        async () =>
          (
            await stack.api.get<AuditPage>('/audit?action=system.dead-letter.discard', admin)
          ).body.entries?.find((e) => e.resourceId === `${queue}/${eventId}`),
        20000,
        'the discard in the access trail',
      );
      expect(trail).toMatchObject({ actorRol: 'ADMIN', reason });
      await signOutThroughUi(page, stack.gatewayUrl);
    }, 120000);

    it('a DOCTOR does not see the menu entry', async () => {
      await signIn(page, BOOTSTRAP.doctor);
      if (viewport.width < 768) await page.getByRole('button', { name: 'Menú' }).click();
      await page.locator('#bo-sidebar-nav a[href="/doctor/agenda"]').waitFor();
      expect(await page.locator('#bo-sidebar-nav a[href="/doctor/system"]').count()).toBe(0);
      expect(await page.getByText('Estado del sistema').count()).toBe(0);
      await signOutThroughUi(page, stack.gatewayUrl);
    }, 90000);
  });
}
