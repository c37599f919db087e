import type { Page } from 'playwright-core';

/**
 * On /dates: goes to next month (always in the future), picks its `nth` weekday (0-based) and
 * returns the ISO instant of the `slot`-th free slot of that day, after clicking it.
 */
export async function pickFutureSlot(page: Page, { nth = 0, slot = 0 } = {}): Promise<string> {
  await page.getByRole('button', { name: 'Mes siguiente' }).click();
  const weekdays = page.locator(
    '.wk-calendar__day:not(.wk-calendar__day--weekend):not(.wk-calendar__day--closed):not([disabled])',
  );
  await weekdays.nth(nth).click();
  const button = page.locator('.wk-slot').nth(slot);
  await button.waitFor({ state: 'visible' });
  const iso = (await button.getAttribute('data-slot')) ?? '';
  await button.click();
  return iso;
}
