/**
 * The slot a visitor picked before signing in (docs/product/booking.md#pending-booking): kept in
 * sessionStorage so the booking can be made automatically once a patient has signed in or signed up in this
 * tab.
 */
const KEY = 'pendingDate';

export const pendingDate = {
  read(): string | null {
    try {
      return window.sessionStorage.getItem(KEY);
    } catch {
      return null;
    }
  },
  save(date: string): void {
    try {
      window.sessionStorage.setItem(KEY, date);
    } catch {
      /* storage unavailable: the visitor picks the slot again after signing in */
    }
  },
  clear(): void {
    try {
      window.sessionStorage.removeItem(KEY);
    } catch {
      /* ignore */
    }
  },
};
