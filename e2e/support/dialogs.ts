import type { Page } from 'playwright-core';

export interface SeenDialog {
  title: string;
  text: string;
}

/** Waits for the alert dialog (sweetalert2), reads it and presses its confirm ("Aceptar"/"Sí") or cancel button. */
export async function answerDialog(
  page: Page,
  button: 'confirm' | 'cancel' = 'confirm',
): Promise<SeenDialog> {
  const popup = page.locator('.swal2-popup.swal2-show');
  await popup.waitFor({ state: 'visible' });
  const title = (await popup.locator('.swal2-title').textContent())?.trim() ?? '';
  const text =
    (
      await popup
        .locator('.swal2-html-container')
        .textContent()
        .catch(() => '')
    )?.trim() ?? '';
  await popup.locator(button === 'confirm' ? '.swal2-confirm' : '.swal2-cancel').click();
  // Closed, or replaced by the next dialog of the queue (which reuses the same container).
  await page
    .waitForFunction(
      (closing) => {
        if (!document.querySelector('.swal2-container')) return true;
        const shown = document.querySelector('.swal2-popup.swal2-show .swal2-title');
        return Boolean(shown && shown.textContent?.trim() !== closing);
      },
      title,
      { timeout: 15000 },
    )
    .catch(async () => {
      const still = await page.locator('.swal2-title').allTextContents();
      throw new Error(`the dialog "${title}" did not close; showing now: ${JSON.stringify(still)}`);
    });
  return { title, text };
}

/** Accepts the cookie banner if it is showing, so it covers nothing. */
export async function acceptCookies(page: Page): Promise<void> {
  const accept = page.locator('#cc-main .cm__btn[data-role="all"]');
  await accept.waitFor({ state: 'visible', timeout: 10000 });
  await accept.click();
  await page.locator('#cc-main .cm').waitFor({ state: 'hidden' });
}

/** The error line under the field with this label, once the field is marked invalid. */
export async function fieldError(page: Page, label: string): Promise<string> {
  const input = page.getByLabel(label, { exact: true });
  await input.and(page.locator('[aria-invalid="true"][aria-describedby]')).waitFor();
  const id = await input.getAttribute('aria-describedby');
  return ((await page.locator(`[id="${id}"]`).textContent()) ?? '').trim();
}
