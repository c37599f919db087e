import type { AgendaEntry, AppointmentStatus } from '@crm/contracts';

/** The badges of the agenda (issue 16): what staff call each status. */
export const AGENDA_STATUS_LABELS: Record<AppointmentStatus, string> = {
  booked: 'Reservada',
  checkedIn: 'En espera',
  attended: 'Atendida',
  noShow: 'No presentado',
  cancelled: 'Cancelada',
  deleted: 'Eliminada',
};

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

/** The actions the server can accept for an entry (it still has the last word). */
export function agendaActions(entry: Pick<AgendaEntry, 'status'>): {
  checkIn: boolean;
  attended: boolean;
  noShow: boolean;
} {
  return {
    checkIn: entry.status === 'booked',
    attended: entry.status === 'booked' || entry.status === 'checkedIn',
    // A patient who came cannot be a no-show (cancel instead).
    noShow: entry.status === 'booked',
  };
}
