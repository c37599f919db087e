import { showSuccess } from '@crm/web-kit';

/**
 * A message to show once after a full page load (kept in sessionStorage): the erasure of an account
 * reloads the site, so that nothing of the person stays in memory, and says so on the next page.
 */
const KEY = 'flashNotice';

export const flashNotice = {
  save(notice: { title: string; text: string }): void {
    try {
      window.sessionStorage.setItem(KEY, JSON.stringify(notice));
    } catch {
      /* storage unavailable: the page simply says nothing */
    }
  },
  /** Shows the saved message, if any, and forgets it. */
  show(): void {
    let notice: { title: string; text: string } | undefined;
    try {
      const saved = window.sessionStorage.getItem(KEY);
      window.sessionStorage.removeItem(KEY);
      notice = saved ? (JSON.parse(saved) as { title: string; text: string }) : undefined;
    } catch {
      notice = undefined;
    }
    if (notice) void showSuccess(notice.title, notice.text);
  },
};
