import { formatDate, formatTime } from '@crm/web-kit/time';

/** Whether the instant falls on today's date at the centre (Atlantic/Canary). */
export const isTodayAtCentre = (instant: string, now: number = Date.now()): boolean =>
  formatDate(instant) === formatDate(now);

/**
 * When an appointment is, as the kiosk says it (centre's time, 24-hour clock): "a las 10:00" today
 * (or "hoy a las 10:00" with `sayToday`), "el 12/12/2026 a las 10:00" another day.
 */
export function appointmentWhen(instant: string, { sayToday = false, now = Date.now() } = {}): string {
  const time = `a las ${formatTime(instant)}`;
  if (isTodayAtCentre(instant, now)) return sayToday ? `hoy ${time}` : time;
  return `el ${formatDate(instant)} ${time}`;
}
