import type { AgendaEntry } from '@crm/contracts';

/** Whole minutes since the check-in (never negative, whatever the clocks say). */
export function minutesWaited(checkedInAt: string, now: number): number {
  const since = Date.parse(checkedInAt);
  if (Number.isNaN(since)) return 0;
  return Math.max(0, Math.floor((now - since) / 60_000));
}

/** "Esperando 1 minuto", "Esperando 12 minutos", "Acaba de llegar". */
export function waitedText(minutes: number): string {
  if (minutes < 1) return 'Acaba de llegar';
  return `Esperando ${minutes} ${minutes === 1 ? 'minuto' : 'minutos'}`;
}

/** The actions the server can accept for an entry at `now` (it still has the last word). */
export function agendaActions(
  entry: Pick<AgendaEntry, 'status' | 'date'>,
  now: number,
): {
  checkIn: boolean;
  attended: boolean;
  noShow: boolean;
} {
  return {
    checkIn: entry.status === 'booked',
    attended: entry.status === 'booked' || entry.status === 'checkedIn',
    // A patient who came cannot be a no-show (cancel instead), nor one whose time has not come.
    noShow: entry.status === 'booked' && Date.parse(entry.date) <= now,
  };
}

/** The appointments a day's total counts: the cancelled ones no longer take anyone's time. */
export const countsInTotal = (entry: Pick<AgendaEntry, 'status'>): boolean =>
  entry.status !== 'cancelled' && entry.status !== 'deleted';
