import type { Page } from 'playwright-core';

/**
 * On /dates: goes to next month (always in the future), picks its `nth` weekday (0-based) and
 * returns the ISO instant of the `slot`-th free slot of that day, after clicking it. When the slot
 * does not come, the error says which day was picked and what the page showed instead.
 */
export async function pickFutureSlot(page: Page, { nth = 0, slot = 0 } = {}): Promise<string> {
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  const weekdays = page.locator(
    '.wk-calendar__day:not(.wk-calendar__day--weekend):not(.wk-calendar__day--closed):not([disabled])',
  );
  const day = weekdays.nth(nth);
  const picked = await day.getAttribute('data-day');
  await day.click();
  const button = page.locator('.wk-slot').nth(slot);
  try {
    await button.waitFor({ state: 'visible' });
  } catch (error) {
    const shown = await page
      .locator('.wk-slots')
      .innerText({ timeout: 1000 })
      .catch(() => '(no slot list)');
    const dialog = await page
      .locator('.swal2-popup.swal2-show')
      .innerText({ timeout: 1000 })
      .catch(() => '(no dialog)');
    throw new Error(
      `slot ${slot} of ${picked} (weekday ${nth} of next month) did not show at ${page.url()}; ` +
        `slot list: ${JSON.stringify(shown)}; dialog: ${JSON.stringify(dialog)}\n${(error as Error).message}`,
    );
  }
  const iso = (await button.getAttribute('data-slot')) ?? '';
  await button.click();
  return iso;
}
