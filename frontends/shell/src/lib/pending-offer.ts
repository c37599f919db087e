/**
 * An offer link opened before signing in: kept in sessionStorage so the patient area can send the
 * patient back to it once they have signed in in this tab.
 */
const KEY = 'pendingOffer';

export const pendingOffer = {
  save(token: string): void {
    try {
      window.sessionStorage.setItem(KEY, token);
    } catch {
      /* storage unavailable: the patient opens the e-mail's link again */
    }
  },
  take(): string | null {
    try {
      const token = window.sessionStorage.getItem(KEY);
      window.sessionStorage.removeItem(KEY);
      return token;
    } catch {
      return null;
    }
  },
};
